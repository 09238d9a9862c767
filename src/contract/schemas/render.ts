import { Type, type Static } from 'typebox';
import { CAPTION_STYLES, EXPORT_FORMATS, RENDER_ASPECTS, RENDER_HEIGHTS, RENDER_MAX_CLIPS, SUBTITLE_FORMATS } from '../rendering';
import { Filename, idParams, Seconds, strict, Uuid } from './common';

/** A point of a picture as fractions of its displayed width and height (0..1). */
const Fraction = Type.Number({ minimum: 0, maximum: 1 });
/**
 * Issue 39: the crop window's centre, fixed for the clip (the user dragged it); absent, the window
 * follows the subject ingest found. Used only when the compilation's aspect crops.
 */
export const clipFramingSchema = Type.Object({ x: Fraction, y: Fraction }, { additionalProperties: false });
export const compilationClipSchema = Type.Object(
  { libraryId: Uuid, mediaId: Uuid, start: Seconds, end: Seconds, framing: Type.Optional(clipFramingSchema) },
  { additionalProperties: false },
);
/** Issue 39: captions of a compilation. `burn`: a style burned into the picture; `soft`: a mov_text subtitle track. */
export const captionsOptionSchema = Type.Object(
  { burn: Type.Optional(Type.Enum(CAPTION_STYLES)), soft: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export const compilationBodySchema = Type.Object(
  {
    clips: Type.Array(compilationClipSchema, { minItems: 1, maxItems: RENDER_MAX_CLIPS }),
    height: Type.Optional(Type.Enum(RENDER_HEIGHTS)),
    filename: Type.Optional(Filename),
    watermark: Type.Optional(Type.Boolean()),
    /** Issue 39: absent is RENDER_ASPECT_DEFAULT ('source'). */
    aspect: Type.Optional(Type.Enum(RENDER_ASPECTS)),
    captions: Type.Optional(captionsOptionSchema),
  },
  { additionalProperties: false },
);
/** Issue 39: the compilation's transcript as subtitles (SRT or WebVTT), cut and re-timed to its clips. */
export const compilationSubtitlesBodySchema = Type.Object(
  {
    clips: Type.Array(compilationClipSchema, { minItems: 1, maxItems: RENDER_MAX_CLIPS }),
    format: Type.Enum(SUBTITLE_FORMATS),
    filename: Type.Optional(Filename),
  },
  { additionalProperties: false },
);
/** Issue 39: the compilation as a project file for a video editor, referencing the originals by name. */
export const compilationExportBodySchema = Type.Object(
  {
    clips: Type.Array(compilationClipSchema, { minItems: 1, maxItems: RENDER_MAX_CLIPS }),
    format: Type.Enum(EXPORT_FORMATS),
    filename: Type.Optional(Filename),
    /** The compilation's shape: a cropping aspect frames each clip as its render would (MLT carries it). */
    aspect: Type.Optional(Type.Enum(RENDER_ASPECTS)),
  },
  { additionalProperties: false },
);
/** Issue 39: the automatic crop path of a range for an aspect (the clip editor and the local preview show it). */
export const framingQuerySchema = Type.Object(
  { aspect: Type.Enum(RENDER_ASPECTS), start: Seconds, end: Seconds },
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
export type ClipFraming = Static<typeof clipFramingSchema>;
export type CaptionsOption = Static<typeof captionsOptionSchema>;
export type CompilationSubtitlesBody = Static<typeof compilationSubtitlesBodySchema>;
export type CompilationExportBody = Static<typeof compilationExportBodySchema>;
export type FramingQuery = Static<typeof framingQuerySchema>;
export type RenderStatusParams = Static<typeof renderStatusParamsSchema>;
export type SrtQuery = Static<typeof srtQuerySchema>;
