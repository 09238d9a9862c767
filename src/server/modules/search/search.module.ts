import type { Platform } from '../../platform';
import type { AccountService } from '../accounts/account.service';
import type { librariesModule } from '../libraries/libraries.module';
import type { ServerModule } from '../module';
import { SearchRepository } from './search.repository';
import { searchRoutes } from './search.routes';
import { SearchService } from './search.service';
import { TranscriptRepository } from './transcript.repository';
import { transcriptRoutes } from './transcript.routes';
import { TranscriptService } from './transcript.service';

/** Search for moments (what is seen, what is said, both), and the transcripts it reads and people correct. */
export function searchModule(p: Platform, lib: ReturnType<typeof librariesModule>) {
  const search = new SearchService({ search: new SearchRepository(p.db), access: lib.access, media: lib.media, models: p.models });
  const transcripts = new TranscriptService({ access: lib.access, transcripts: new TranscriptRepository(p.db) });
  return {
    search,
    transcripts,
    module: (accounts: AccountService): ServerModule => ({
      routes: (app) => {
        searchRoutes(app, accounts, search);
        transcriptRoutes(app, accounts, transcripts);
      },
    }),
  };
}
