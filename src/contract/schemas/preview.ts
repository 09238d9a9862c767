import { Type, type Static } from 'typebox';
import { ExpiresAt, Seconds, Signature, strict, Uuid } from './common';

/**
 * Players and <img> tags cannot send headers: these calls take the library preview token in the
 * query. It is optional here: without it (or a bearer token) the answer is 401, not 400.
 */
const PreviewToken = Type.String({ maxLength: 4096 });

export const previewQuerySchema = Type.Object({ token: Type.Optional(PreviewToken) }, strict);
/** The spec's token-looked-up paths (playlist, transcript, shot descriptions) name the media in the query. */
export const mediaQuerySchema = Type.Object({ token: Type.Optional(PreviewToken), libraryId: Uuid, mediaId: Uuid }, strict);
export const previewSegmentParamsSchema = Type.Object({
  libraryId: Uuid,
  mediaId: Uuid,
  segment: Type.String({ pattern: '^seg_[0-9]{1,9}\\.ts$' }),
});
/** A poster (no `t`) or a still at `t` seconds. */
export const thumbnailQuerySchema = Type.Object({ token: Type.Optional(PreviewToken), t: Type.Optional(Seconds) }, strict);

/** The local blob store's signed links; a link without its signature is refused (403), not 400. */
export const blobPartParamsSchema = Type.Object({ uploadId: Uuid, part: Type.Integer({ minimum: 1, maximum: 10_000 }) });
export const blobPartQuerySchema = Type.Object({ exp: Type.Optional(ExpiresAt), sig: Type.Optional(Signature) }, strict);
/** The object's key, its segments percent-encoded. */
export const blobFileParamsSchema = Type.Object({ '*': Type.String({ maxLength: 2048 }) });
export const blobFileQuerySchema = Type.Object(
  {
    exp: Type.Optional(ExpiresAt),
    sig: Type.Optional(Signature),
    filename: Type.Optional(Type.String({ maxLength: 1000 })),
    d: Type.Optional(Type.Enum(['attachment', 'inline'])),
  },
  strict,
);

export type MediaQuery = Static<typeof mediaQuerySchema>;
export type ThumbnailQuery = Static<typeof thumbnailQuerySchema>;
