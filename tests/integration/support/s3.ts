import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/** An S3-compatible server on loopback (s3rver) with the `clipseek` bucket, and the env that points the app at it. */
export async function startS3() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3rver-'));
  const s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: dir,
    configureBuckets: [{ name: 'clipseek', configs: [] }],
  });
  const addr = (await s3.run()) as { port: number };
  return {
    env: {
      BLOB_STORE: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${addr.port}`,
      S3_BUCKET: 'clipseek',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    close: async () => {
      await s3.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
