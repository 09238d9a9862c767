import { Type, type Static } from 'typebox';
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

export type LoginBody = Static<typeof loginBodySchema>;
export type RegisterBody = Static<typeof registerBodySchema>;
export type EmailBody = Static<typeof emailBodySchema>;
export type ResetBody = Static<typeof resetBodySchema>;
export type ChangePasswordBody = Static<typeof changePasswordBodySchema>;
export type VerifyEmailBody = Static<typeof verifyEmailBodySchema>;
export type FeedbackBody = Static<typeof feedbackBodySchema>;
