import { Type, type Static } from 'typebox';
import { Filename, idParams, strict, Uuid } from './common';

/** Names are trimmed and checked by the service (the spec's maximum after trimming, no control characters). */
const Name = Type.String({ maxLength: 1000 });
const IdList = Type.Array(Uuid, { maxItems: 1000 });

export const libraryParamsSchema = idParams('id');
export const libraryIdParamsSchema = idParams('libraryId');
export const libraryFolderParamsSchema = idParams('libraryId', 'folderId');
export const mediaParamsSchema = idParams('libraryId', 'mediaId');
/** Upload calls and link import name the library `id`. */
export const folderParamsSchema = idParams('id', 'folderId');
export const uploadFinishParamsSchema = idParams('id', 'mediaId');

export const libraryCreateBodySchema = Type.Object({ name: Type.Optional(Name), settings: Type.Optional(Type.Object({})) });
export const nameBodySchema = Type.Object({ name: Name });

/**
 * A folder's order: `title#1` / `modified#-1` (the client's stored MediaSortValue), or the key alone
 * with `direction`. Absent: modified, ascending.
 */
export const mediaSortQuerySchema = Type.Object(
  {
    sort: Type.Optional(Type.String({ pattern: '^(title|modified|added|duration)(#(1|-1))?$' })),
    direction: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(-1)])),
  },
  strict,
);
/** Positions [start, end) of a folder's media in that order (the service allows at most 500 at once). */
export const mediaRangeQuerySchema = Type.Object(
  {
    ...mediaSortQuerySchema.properties,
    folderId: Type.Optional(Uuid),
    start: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
    end: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  },
  strict,
);

export const folderCreateBodySchema = Type.Object(
  {
    name: Name,
    /** The folder to create it in; absent: the library's root folder. */
    parentId: Type.Optional(Uuid),
  },
  strict,
);
export const folderRenameBodySchema = Type.Object({ name: Name }, strict);
export const folderDeleteQuerySchema = Type.Object(
  {
    /** Required to delete a folder that is not empty: its contents are deleted with it. */
    recursive: Type.Optional(Type.Boolean()),
  },
  strict,
);

export const mediaIdsBodySchema = Type.Object({ mediaIds: IdList });
/** Clear uploads: without ids, every unfinished upload of the library. */
export const optionalMediaIdsBodySchema = Type.Object({ mediaIds: Type.Optional(IdList) });
export const originalQuerySchema = Type.Object({ filename: Type.Optional(Filename) }, strict);

export const uploadStartBodySchema = Type.Object({
  filename: Name,
  /** Size and parts are checked against each other, with their own messages, by the upload service. */
  size: Type.Number(),
  parts: Type.Integer(),
  /** The file's fingerprint (see fingerprintOf). */
  uniqueId: Type.String({ maxLength: 200 }),
  deduplicationPolicy: Type.Object({ onConflict: Type.Literal('error') }),
});
export const uploadFinishBodySchema = Type.Object({
  opaqueData: Type.String({ maxLength: 4000 }),
  /**
   * The ETag answered by each part PUT. Optional: the server asks its store first; S3-compatible
   * stores without ListParts need them to assemble the object.
   */
  parts: Type.Optional(
    Type.Array(Type.Object({ partNumber: Type.Integer(), etag: Type.String({ maxLength: 200 }) }), { maxItems: 10_000 }),
  ),
});

export type MediaSortQuery = Static<typeof mediaSortQuerySchema>;
export type MediaRangeQuery = Static<typeof mediaRangeQuerySchema>;
export type FolderCreateBody = Static<typeof folderCreateBodySchema>;
export type FolderRenameBody = Static<typeof folderRenameBodySchema>;
export type FolderDeleteQuery = Static<typeof folderDeleteQuerySchema>;
export type UploadStartBody = Static<typeof uploadStartBodySchema>;
export type UploadFinishBody = Static<typeof uploadFinishBodySchema>;
