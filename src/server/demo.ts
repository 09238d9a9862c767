import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { BlobStore } from './adapters/blobs/blobStore';
import { fingerprintOfBytes } from './fingerprint';
import type { DemoItem } from './modules/libraries/library.service';
import { blobKeys } from './modules/storage/blobKeys';

/** The sample media every demo library holds: shipped in assets/demo, copied once into the blob store. */
export async function loadDemoItems(blobs: BlobStore, dir = path.resolve(import.meta.dirname, '../../assets/demo')): Promise<DemoItem[]> {
  if (!fs.existsSync(dir)) return [];
  const items: DemoItem[] = [];
  for (const filename of fs
    .readdirSync(dir)
    .filter((f) => /\.(mp4|webm|mov)$/i.test(f))
    .sort()) {
    const file = path.join(dir, filename);
    const bytes = fs.readFileSync(file);
    const key = blobKeys.demo(createHash('sha256').update(bytes).digest('hex').slice(0, 16), filename);
    if (!(await blobs.exists(key))) await blobs.put(key, bytes, 'video/mp4');
    items.push({ key, filename, size: bytes.length, uniqueId: fingerprintOfBytes(bytes) });
  }
  return items;
}
