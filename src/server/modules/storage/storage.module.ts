import path from 'node:path';
import type { Platform } from '../../platform';
import type { ServerModule } from '../module';
import { BlobRefsRepository } from './blobRefs.repository';
import { blobSweepJob } from './blobSweep.job';
import { BlobSweepService } from './blobSweep.service';

/** Blob storage upkeep: the hourly sweep of blobs nothing refers to and of abandoned scratch files. */
export function storageModule(p: Platform) {
  const blobSweep = new BlobSweepService({
    blobs: p.blobs,
    refs: new BlobRefsRepository(p.db),
    workDirs: [p.workDir, path.join(p.workDir, 'links')],
    log: p.log,
  });
  return { blobSweep, module: { jobs: [blobSweepJob(blobSweep)] } satisfies ServerModule };
}
