import { Type, type Static } from 'typebox';
import { RENDER_HEIGHTS, RENDER_MAX_CLIPS } from '../rendering';
import { Filename, idParams, Seconds, strict, Uuid } from './common';

export const compilationClipSchema = Type.Object(
  { libraryId: Uuid, mediaId: Uuid, start: Seconds, end: Seconds },
  { additionalProperties: false },
);
export const compilationBodySchema = Type.Object(
  {
    clips: Type.Array(compilationClipSchema, { minItems: 1, maxItems: RENDER_MAX_CLIPS }),
    height: Type.Optional(Type.Enum(RENDER_HEIGHTS)),
    filename: Type.Optional(Filename),
    watermark: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export const gifBodySchema = Type.Object(
  {
    start: Seconds,
    end: Seconds,
    filename: Type.Optional(Filename),
    /** Not in the spec's call: false renders without the mark, for credits as a compilation does. */
    watermark: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export const renderStatusParamsSchema = idParams('renderId');
/** A moment's range; both absent: the whole media. */
export const srtQuerySchema = Type.Object(
  { start: Type.Optional(Seconds), end: Type.Optional(Seconds), filename: Type.Optional(Filename) },
  strict,
);

export type CompilationClip = Static<typeof compilationClipSchema>;
export type CompilationBody = Static<typeof compilationBodySchema>;
export type GifBody = Static<typeof gifBodySchema>;
export type RenderStatusParams = Static<typeof renderStatusParamsSchema>;
export type SrtQuery = Static<typeof srtQuerySchema>;
