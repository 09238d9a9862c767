import { Type, type Static } from 'typebox';
import { EXTERNAL_BULK_BATCH, EXTERNAL_URL_MAX_LENGTH, LINK_TYPES } from '../external';

const Url = Type.String({ minLength: 1, maxLength: EXTERNAL_URL_MAX_LENGTH });

/** Peek, unwind and single add. */
export const externalUrlBodySchema = Type.Object({ url: Url }, { additionalProperties: false });
export const externalBulkBodySchema = Type.Object(
  {
    items: Type.Array(Type.Object({ url: Url, name: Type.String({ maxLength: 1000 }) }, { additionalProperties: false }), {
      minItems: 1,
      maxItems: EXTERNAL_BULK_BATCH,
    }),
    /** Not in the spec's call: the kind of link the items came from (kept in the media's origin). */
    type: Type.Optional(Type.Enum(LINK_TYPES)),
  },
  { additionalProperties: false },
);

export type ExternalUrlBody = Static<typeof externalUrlBodySchema>;
export type ExternalBulkBody = Static<typeof externalBulkBodySchema>;
