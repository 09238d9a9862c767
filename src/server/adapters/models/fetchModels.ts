import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The indexer's model files in `models/`, pinned by size and SHA-256 (see models/README.md).
 * `optional` files add a feature when present (CLIP) and are not reported when absent. `features`
 * are what cannot be computed without the file.
 */
export interface ModelFile {
  path: string;
  size: number;
  sha256: string;
  features: readonly string[];
  optional?: boolean;
}

export const MODEL_FILES: readonly ModelFile[] = [
  {
    path: 'yolox_nano.onnx',
    size: 3_713_911,
    sha256: 'd39bee73564e338080378b0ad567fbb40e818b55bbfaf971de82a0267ed16b8a',
    features: ['objects'],
  },
  {
    path: 'coco80_labels.txt',
    size: 625,
    sha256: '634a1132eb33f8091d60f2c346ababe8b905ae08387037aed883953b7329af84',
    features: ['objects'],
  },
  {
    path: 'mobilenetv2-12-int8-embed.onnx',
    size: 3_655_165,
    sha256: '3047acc00999d98dc79adc503d4f813539627da179e6cb265b676a3ed02ae80a',
    features: ['classes', 'embedding'],
  },
  {
    path: 'imagenet1k_labels.tsv',
    size: 35_613,
    sha256: '7623c9fd30179629f96e02a323538c20146c2743797d25f7ea5e58056ff9a258',
    features: ['classes', 'embedding'],
  },
  {
    path: 'ultraface/version-RFB-320.onnx',
    size: 1_270_727,
    sha256: '34cd7e60aeff28744c657de7a3dc64e872d506741de66987f3426f2b79f88017',
    features: ['faces'],
  },
  {
    path: 'clip-tokenizer/vocab.json',
    size: 1_059_962,
    sha256: 'e089ad92ba36837a0d31433e555c8f45fe601ab5c221d4f607ded32d9f7a4349',
    features: ['clip'],
  },
  {
    path: 'clip-tokenizer/merges.txt',
    size: 524_619,
    sha256: '9fd691f7c8039210e0fced15865466c65820d09b63988b0174bfe25de299051a',
    features: ['clip'],
  },
  // The OpenCLIP ViT-B/32 int8 pair: sizes are not pinned (only hashes are published), 0 = any.
  {
    path: 'textual_quant.onnx',
    size: 0,
    sha256: '1ebb71a5ea1897823a829af8fc8168c5cfff761969bb62aee1fafdf5a2788aba',
    features: ['clip'],
    optional: true,
  },
  {
    path: 'visual_quant.onnx',
    size: 0,
    sha256: 'a2fbb26b5f6ab5c79dd9bf99ab2dbac4711abc88dc2e20afc02a0827aa3d59c2',
    features: ['clip'],
    optional: true,
  },
];

export interface FetchProgress {
  file: string;
  received: number;
  /** Bytes expected, 0 when unknown. */
  total: number;
}

export interface FetchModelsOptions {
  /** Where the files are published, mirroring the folder layout (`${baseUrl}/${path}`). */
  baseUrl: string;
  files?: readonly ModelFile[];
  onProgress?(p: FetchProgress): void;
  /** Attempts per file; each attempt resumes where the last one stopped (default 4). */
  attempts?: number;
  fetchImpl?: typeof fetch;
}

export interface FetchModelsResult {
  fetched: string[];
  /** Files still missing, by name, with the reason (required files only). */
  failed: Array<{ path: string; reason: string }>;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The model files of `files` that are absent from `dir` (a present file is trusted; its hash is checked when fetched). */
export function missingModelFiles(dir: string, files: readonly ModelFile[] = MODEL_FILES): ModelFile[] {
  return files.filter((f) => !fs.existsSync(path.join(dir, f.path)));
}

/** A present model file whose size or SHA-256 is not the pinned one, and why. */
export interface CorruptModelFile {
  path: string;
  features: readonly string[];
  reason: string;
}

/**
 * Checks every present file of `files` in `dir` against its pinned size and SHA-256 (about 40 ms
 * for the 10 MB shipped here). An absent file is not corrupt: opening its model reports it missing.
 */
export async function verifyModelFiles(dir: string, files: readonly ModelFile[] = MODEL_FILES): Promise<CorruptModelFile[]> {
  const corrupt: CorruptModelFile[] = [];
  for (const f of files) {
    const file = path.join(dir, f.path);
    if (!fs.existsSync(file)) continue;
    const size = fs.statSync(file).size;
    if (f.size && size !== f.size) {
      corrupt.push({ path: f.path, features: f.features, reason: `${size} bytes instead of ${f.size}` });
      continue;
    }
    const digest = await sha256Of(file);
    if (digest !== f.sha256) {
      corrupt.push({ path: f.path, features: f.features, reason: `sha256 ${digest.slice(0, 12)}… instead of ${f.sha256.slice(0, 12)}…` });
    }
  }
  return corrupt;
}

class ChecksumError extends Error {}

/**
 * One attempt: continues `<file>.part` with a Range request when some of it is there (a server that
 * ignores the range answers 200 and the download restarts), then checks size and SHA-256 and moves
 * the file into place. Never leaves a wrong file under the real name.
 */
async function attemptFile(dir: string, f: ModelFile, baseUrl: string, fetchImpl: typeof fetch, onProgress?: (p: FetchProgress) => void) {
  const target = path.join(dir, f.path);
  const part = `${target}.part`;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  let have = fs.existsSync(part) ? fs.statSync(part).size : 0;
  if (f.size && have > f.size) {
    fs.rmSync(part);
    have = 0;
  }
  if (!f.size || have < f.size) {
    const res = await fetchImpl(`${baseUrl.replace(/\/$/, '')}/${f.path}`, { headers: have ? { range: `bytes=${have}-` } : {} });
    if (res.status === 404) throw new Error('not published at MODELS_URL (404)');
    if (res.status === 416) have = f.size;
    else {
      if (res.status !== 200 && res.status !== 206) throw new Error(`HTTP ${res.status}`);
      if (res.status === 200) have = 0;
      const total = f.size || have + Number(res.headers.get('content-length') ?? 0);
      const out = fs.createWriteStream(part, { flags: res.status === 206 ? 'a' : 'w' });
      try {
        const reader = res.body!.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (!out.write(value)) await new Promise<void>((r) => out.once('drain', () => r()));
          have += value.length;
          onProgress?.({ file: f.path, received: have, total });
        }
      } finally {
        await new Promise<void>((resolve) => out.end(resolve));
      }
    }
  }
  const size = fs.statSync(part).size;
  if (f.size && size < f.size) throw new Error(`interrupted at ${size} of ${f.size} bytes`);
  const digest = await sha256Of(part);
  if (digest !== f.sha256 || (f.size && size !== f.size)) {
    fs.rmSync(part);
    throw new ChecksumError(`checksum mismatch (got sha256 ${digest.slice(0, 12)}…, expected ${f.sha256.slice(0, 12)}…)`);
  }
  fs.renameSync(part, target);
}

/**
 * Fetches the model files missing from `dir` from `baseUrl`: resumable (byte ranges into a `.part`
 * file, retried), SHA-256-verified, with progress. What cannot be fetched is returned by name; the
 * caller reports it and the index records the features it could not compute.
 */
export async function fetchMissingModels(dir: string, opts: FetchModelsOptions): Promise<FetchModelsResult> {
  const fetchImpl = opts.fetchImpl ?? fetch;
  const result: FetchModelsResult = { fetched: [], failed: [] };
  for (const f of missingModelFiles(dir, opts.files)) {
    let reason = '';
    for (let attempt = 1; attempt <= (opts.attempts ?? 4); attempt++) {
      try {
        await attemptFile(dir, f, opts.baseUrl, fetchImpl, opts.onProgress);
        result.fetched.push(f.path);
        reason = '';
        break;
      } catch (err) {
        reason = err instanceof Error ? err.message : String(err);
        // A wrong file or an unpublished one will not get better by asking again.
        if (err instanceof ChecksumError || /404/.test(reason)) break;
      }
    }
    if (reason && !f.optional) result.failed.push({ path: f.path, reason });
  }
  return result;
}
