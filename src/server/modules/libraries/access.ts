import { MSG_LIB } from '../../../contract';
import { AppError } from '../../errors';
import type { LibraryRepository, LibraryRow } from './library.repository';
import type { MediaRepository, MediaRow } from './media.repository';

/** 'write' is refused on read-only libraries (the demo); 'read' is owning the library. */
export type LibraryAccess = 'read' | 'write';

/**
 * Who may do what with a library and its media, in one place (Immich's access.ts is the model):
 * every service asks here before it reads or changes a user's things. A library that is not the
 * user's, and a media that is not in it, are "not found", never "forbidden": their existence is
 * not told to anyone else.
 */
export class Access {
  constructor(
    private readonly d: {
      libraries: Pick<LibraryRepository, 'byIdForUser' | 'listByUser'>;
      media: Pick<MediaRepository, 'inLibrary'>;
    },
  ) {}

  /** The user's library `libraryId`. */
  async library(userId: string, libraryId: string, access: LibraryAccess = 'read'): Promise<LibraryRow> {
    const lib = await this.d.libraries.byIdForUser(libraryId, userId);
    if (!lib) throw new AppError('not_found', MSG_LIB.libraryNotFound);
    if (access === 'write' && (lib.is_read_only || lib.is_demo)) throw new AppError('forbidden', MSG_LIB.readOnlyLibrary);
    return lib;
  }

  /**
   * `ids`, when every one is the user's library (one read for all, or none when the request's
   * session already holds the user's libraries: `owned`).
   */
  async libraries(userId: string, ids: readonly string[], owned?: readonly string[]): Promise<string[]> {
    const mine = new Set(owned ?? (await this.d.libraries.listByUser(userId)).map((l) => l.id));
    if (ids.some((id) => !mine.has(id))) throw new AppError('not_found', MSG_LIB.libraryNotFound);
    return [...ids];
  }

  /**
   * A media of the user's library. Media still `empty` (an upload whose file never arrived) exist
   * for the uploader only: other callers do not see them unless `includeEmpty`.
   */
  async media(
    userId: string,
    libraryId: string,
    mediaId: string,
    opts: { access?: LibraryAccess; includeEmpty?: boolean } = {},
  ): Promise<MediaRow> {
    await this.library(userId, libraryId, opts.access);
    const m = await this.d.media.inLibrary(libraryId, mediaId);
    if (!m || (m.status === 'empty' && !opts.includeEmpty)) throw new AppError('not_found', MSG_LIB.mediaNotFound);
    return m;
  }
}
