import { Type, type TString } from 'typebox';

/** Every id of the API (users, libraries, folders, media, renders...) is a UUID. */
export const Uuid = Type.String({ format: 'uuid' });

/** Path parameters that are all ids, e.g. `idParams('libraryId', 'mediaId')`. */
export const idParams = <K extends string>(...names: K[]) =>
  Type.Object(Object.fromEntries(names.map((n) => [n, Uuid])) as { [P in K]: TString });

/**
 * Query strings declare every key they take: the server drops any other key (Fastify's
 * `removeAdditional`), so a handler reads only values that were checked.
 */
export const strict = { additionalProperties: false } as const;

/**
 * The schema keyword that marks free text (search text, feedback comments and crash reports): there,
 * tabs and line breaks are allowed. Every other string of every call, and every key, is refused
 * with any C0 control character or DEL, and every string with a lone surrogate, before the route's
 * schema runs (src/server/http/inputGuard.ts). The server's validator knows the keyword.
 */
export const MULTILINE_KEYWORD = 'x-multiline';
/** Options of a free-text string: `Type.String({ maxLength: 2000, ...multiline })`. */
export const multiline = { [MULTILINE_KEYWORD]: true } as const;

/** A download's suggested file name. */
export const Filename = Type.String({ maxLength: 255 });
/** A time in a media, in seconds. */
export const Seconds = Type.Number({ minimum: 0, maximum: 86_400 });
/** A signature of a signed link (hex or base64url MAC). */
export const Signature = Type.String({ maxLength: 200 });
/** A signed link's expiry, unix seconds as it was signed (kept as text: the signature covers the exact digits). */
export const ExpiresAt = Type.String({ pattern: '^[0-9]{1,12}$' });
