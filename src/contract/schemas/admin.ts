import { Type, type Static } from 'typebox';
import { strict } from './common';

/** The support CLI's bridge (`npm run admin`): sign in as `email` for `minutes`, recorded as `by`. */
export const impersonateBodySchema = Type.Object(
  { email: Type.String({ maxLength: 320 }), by: Type.String({ maxLength: 320 }), minutes: Type.Number() },
  strict,
);
export type ImpersonateBody = Static<typeof impersonateBodySchema>;
