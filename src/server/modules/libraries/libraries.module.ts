import type { Platform } from '../../platform';
import type { AccountService } from '../accounts/account.service';
import { IndexRepository } from '../ingest/index.repository';
import type { ServerModule } from '../module';
import type { UploadService } from '../upload/upload.service';
import { UploadRepository } from '../upload/upload.repository';
import { Access } from './access';
import { LibraryRepository } from './library.repository';
import { libraryRoutes } from './library.routes';
import { LibraryService } from './library.service';
import { MediaRepository } from './media.repository';

/**
 * Libraries, folders and their media, and who may reach them (`access`). The media store's
 * repositories are made here once and handed to the modules that read or write media: upload,
 * ingest, search, render, link import.
 */
export function librariesModule(p: Platform) {
  const media = new MediaRepository(p.db);
  const uploadRepo = new UploadRepository(p.db);
  const libraryRepo = new LibraryRepository(p.db);
  const index = new IndexRepository(p.db);
  const access = new Access({ libraries: libraryRepo, media });
  const libraries = new LibraryService({
    access,
    index,
    libraries: libraryRepo,
    media,
    uploads: uploadRepo,
    blobs: p.blobs,
    queue: p.queue,
    tokens: p.tokens,
    demoItems: () => p.demoItems,
  });
  return {
    libraries,
    access,
    media,
    index,
    uploadRepo,
    module: (accounts: AccountService, uploads: UploadService): ServerModule => ({
      routes: (app) => libraryRoutes(app, accounts, libraries, uploads),
    }),
  };
}
