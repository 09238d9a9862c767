import type { Platform } from '../../platform';
import type { AccountService } from '../accounts/account.service';
import type { LibraryService } from '../libraries/library.service';
import type { ServerModule } from '../module';
import type { TranscriptService } from '../search/transcript.service';
import type { UploadService } from '../upload/upload.service';
import { blobRoutes } from './blob.routes';
import { DeliveryService } from './delivery.service';
import { previewRoutes } from './preview.routes';

/** Delivery: signed blob downloads and uploads, HLS previews, sources, strips, stills and transcripts' files. */
export function deliveryModule(
  p: Platform,
  d: { accounts: AccountService; libraries: LibraryService; uploads: UploadService; transcripts: TranscriptService },
): ServerModule {
  const delivery = new DeliveryService({ accounts: d.accounts, libraries: d.libraries, blobs: p.blobs, tokens: p.tokens });
  return {
    routes: (app) => {
      blobRoutes(app, d.uploads, delivery);
      previewRoutes(app, delivery, d.libraries, d.transcripts);
    },
  };
}
