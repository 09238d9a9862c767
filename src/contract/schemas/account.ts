import { Type, type Static } from 'typebox';
import { MOMENT_TRIM_EDITS_MAX } from '../momentTrims';
import { multiline, strict } from './common';

const Email = Type.String({ maxLength: 320 });
const Password = Type.String({ maxLength: 1024 });
/** An emailed code (verification or password reset). */
const Code = Type.String({ maxLength: 200 });

/** Empty fields are the service's to refuse, with the spec's wording. */
export const loginBodySchema = Type.Object({ email: Type.Optional(Email), password: Type.Optional(Password) }, strict);
export const registerBodySchema = Type.Object({ email: Email, password: Password }, strict);
export const emailBodySchema = Type.Object({ email: Email }, strict);
export const resetBodySchema = Type.Object({ token: Code, password: Password }, strict);
export const changePasswordBodySchema = Type.Object({ oldPassword: Type.Optional(Password), newPassword: Type.Optional(Password) }, strict);
export const verifyEmailBodySchema = Type.Object({ token: Code }, strict);
export const resetCheckBodySchema = Type.Object({ token: Code }, strict);
/** Partial UiPreferences: validatePreferences names a bad setting in the spec's words. */
export const settingsBodySchema = Type.Object({});
export const feedbackBodySchema = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    email: Type.Optional(Email),
    comments: Type.String({ maxLength: 10_000, ...multiline }),
    /** The crash report: a message and its stack. */
    error: Type.String({ maxLength: 20_000, ...multiline }),
  },
  strict,
);

/** A moment id as the search makes it (contract `momentId`): its media and original range in ms. */
const MomentId = Type.String({ pattern: '^m_[0-9a-f-]{36}_[0-9]{1,12}_[0-9]{1,12}$', maxLength: 100 });
const Range = Type.Object(
  { startTime: Type.Number({ minimum: 0, maximum: 86_400 }), endTime: Type.Number({ minimum: 0, maximum: 86_400 }) },
  strict,
);
/** POST API.meTrims: edits of moment trims (trimEditProblem says what else is wrong with one). */
export const momentTrimsBodySchema = Type.Object(
  {
    edits: Type.Array(
      Type.Object(
        {
          momentId: MomentId,
          originalTimestamps: Range,
          newTimestamps: Type.Union([Range, Type.Null()]),
          editedAt: Type.String({ format: 'date-time', maxLength: 40 }),
        },
        strict,
      ),
      { maxItems: MOMENT_TRIM_EDITS_MAX },
    ),
  },
  strict,
);

export type LoginBody = Static<typeof loginBodySchema>;
export type MomentTrimsBody = Static<typeof momentTrimsBodySchema>;
export type RegisterBody = Static<typeof registerBodySchema>;
export type EmailBody = Static<typeof emailBodySchema>;
export type ResetBody = Static<typeof resetBodySchema>;
export type ChangePasswordBody = Static<typeof changePasswordBodySchema>;
export type VerifyEmailBody = Static<typeof verifyEmailBodySchema>;
export type ResetCheckBody = Static<typeof resetCheckBodySchema>;
export type FeedbackBody = Static<typeof feedbackBodySchema>;
