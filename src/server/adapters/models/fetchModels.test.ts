import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODELS_DIR, tempDir } from '../../../../tests/fixtures/modelsDir';
import { fetchMissingModels, MODEL_FILES, missingModelFiles, type FetchProgress } from './fetchModels';
import { createIndexModels } from './index';

/**
 * A mirror of the models folder on loopback that misbehaves on purpose: the first download of
 * yolox_nano.onnx drops the connection after 1 MB, and ultraface is served corrupted.
 */
function startMirror() {
  const requests: Array<{ path: string; range?: string }> = [];
  let cutOnce = true;
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url!, 'http://x').pathname).replace(/^\/models\//, '');
    requests.push({ path: rel, range: req.headers.range });
    const file = path.join(MODELS_DIR, rel);
    if (!rel || rel.includes('..') || !fs.existsSync(file)) return void res.writeHead(404).end();
    let body = fs.readFileSync(file);
    if (rel.startsWith('ultraface/')) body = Buffer.concat([body.subarray(0, 1000), Buffer.alloc(body.length - 1000, 7)]);
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const start = m ? Number(m[1]) : 0;
    res.writeHead(m ? 206 : 200, {
      'content-length': body.length - start,
      ...(m ? { 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` } : {}),
    });
    if (rel === 'yolox_nano.onnx' && cutOnce) {
      cutOnce = false;
      // let the megabyte reach the client before the connection drops
      res.write(body.subarray(0, 1024 * 1024), () => setTimeout(() => res.destroy(), 100));
      return;
    }
    res.end(body.subarray(start));
  });
  return new Promise<{ url: string; requests: typeof requests; close(): Promise<void> }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as { port: number }).port}/models`,
        requests,
        close: () => new Promise<void>((r) => server.close(() => r())),
      }),
    ),
  );
}

describe('fetching missing model files', () => {
  let mirror: Awaited<ReturnType<typeof startMirror>>;
  let dir: string;
  beforeAll(async () => {
    mirror = await startMirror();
    dir = tempDir('fetch-models');
  });
  afterAll(async () => {
    await mirror.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  // Not a 5 s unit budget: it fetches ~9 MB over loopback, hashes it and loads three ONNX models (6.2 s on 2 busy cores).
  it(
    'resumes an interrupted download, checks every hash, names what it could not get, and the models then load',
    { timeout: 60_000 },
    async () => {
      const progress: FetchProgress[] = [];
      const result = await fetchMissingModels(dir, { baseUrl: mirror.url, onProgress: (p) => progress.push(p) });

      // the cut download continued from where it stopped instead of starting again
      const yolox = mirror.requests.filter((r) => r.path === 'yolox_nano.onnx');
      expect(yolox).toHaveLength(2);
      const resumedAt = Number(/^bytes=(\d+)-$/.exec(yolox[1]!.range ?? '')?.[1]);
      expect(resumedAt).toBeGreaterThan(0);
      expect(resumedAt).toBeLessThanOrEqual(1024 * 1024);
      const yoloxProgress = progress.filter((p) => p.file === 'yolox_nano.onnx').map((p) => p.received);
      expect(yoloxProgress.at(-1)).toBe(3_713_911);
      expect(yoloxProgress.every((v, i) => i === 0 || v >= yoloxProgress[i - 1]!)).toBe(true);

      expect(result.fetched.sort()).toEqual(
        MODEL_FILES.filter((f) => !f.optional && !f.path.startsWith('ultraface/'))
          .map((f) => f.path)
          .sort(),
      );
      // the corrupted file is refused by name and nothing wrong is left under its name
      expect(result.failed).toEqual([{ path: 'ultraface/version-RFB-320.onnx', reason: expect.stringMatching(/checksum mismatch/) }]);
      expect(fs.existsSync(path.join(dir, 'ultraface/version-RFB-320.onnx'))).toBe(false);
      expect(fs.existsSync(path.join(dir, 'ultraface/version-RFB-320.onnx.part'))).toBe(false);
      // optional CLIP weights the mirror does not have are not failures
      expect(missingModelFiles(dir).map((f) => f.path)).toEqual([
        'ultraface/version-RFB-320.onnx',
        'textual_quant.onnx',
        'visual_quant.onnx',
      ]);

      const models = await createIndexModels(dir);
      try {
        expect(models.capabilities).toEqual(expect.arrayContaining(['objects', 'classes', 'embedding']));
        // ingest does not run the face model, so the file it could not get stops nothing
        expect(models.missing.join('\n')).not.toMatch(/faces/);
      } finally {
        await models.close();
      }

      // a second start finds everything it can have and asks for nothing required again
      const before = mirror.requests.length;
      const again = await fetchMissingModels(dir, { baseUrl: mirror.url });
      expect(again.fetched).toEqual([]);
      expect(mirror.requests.slice(before).map((r) => r.path)).toEqual([
        'ultraface/version-RFB-320.onnx',
        'textual_quant.onnx',
        'visual_quant.onnx',
      ]);
    },
  );
});
