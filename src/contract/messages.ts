/** Every user-visible string of the accounts/shell spec, verbatim. Screens and server both read them from here. */
export const MSG = {
  // Login
  loginHeading: 'Log in',
  loginSubtitle: 'Welcome back! Please enter your details.',
  loginSubmit: 'Sign in',
  loginSubmitBusy: 'Signing in',
  forgotPasswordLink: 'Forgot password',
  noAccountLink: 'No account yet? Register for one!',
  emailPasswordRequired: 'Email and password are required',
  // Register
  registerHeading: 'Register',
  registerSubtitle: "You're one step away from getting started.",
  registerSubmit: 'Sign up',
  registerSubmitBusy: 'Signing you up...',
  criterionLength: 'At least 8 characters.',
  criterionMatch: 'Passwords match.',
  passwordFieldsMismatch: 'Password fields do not match.',
  mustAcceptTerms: 'You must accept the Terms of Service and Privacy Policy',
  registerCriteriaUnmet: "For your account's security, please ensure your password meets all the listed criteria below.",
  emailExists: 'This email is already registered. Sign in or reset your password.',
  invalidEmail: 'Invalid email',
  /** Substring of a 400 message that the register screen maps to 'Invalid email'. */
  serverInvalidEmailMarker: 'must be a valid email',
  unexpected: 'An unexpected error occurred. Please try again.',
  // Password reset
  checkYourEmail: 'Check your email',
  resetLimitServer: 'You have exceeded the request limit',
  resetLimitShown: "You've recently requested a password reset link.",
  pleaseWait: (seconds: number) => `Please wait ${seconds} seconds before retrying.`,
  passwordsDoNotMatch: 'Passwords do not match',
  resetCriteriaUnmet: 'Please satisfy all the conditions for your account security.',
  goToHomepage: 'Go to homepage',
  // Verify email
  resendVerification: 'Resend verification email',
  notYou: (email: string) => `Not ${email}? Logout.`,
  confirmingEmail: 'Confirming your email...',
  // Change password
  currentPasswordRequired: 'Current password is required.',
  newPasswordRequired: 'New password is required.',
  passwordsDoNotMatchDot: 'Passwords do not match.',
  changePasswordFailedToast: 'Failed to change password',
  changePasswordUnknown: 'An unknown error occurred',
  passwordChanged: 'Password changed successfully',
  // Roles
  verifyToAdd: 'Please verify your email to add videos and create libraries.',
  unauthorized: 'unauthorized',
  // Impersonation
  impersonationWarning: 'Proceed with caution, this is not your account',
  fullControl: 'FULL CONTROL',
  // Billing (texts the shell shows; the billing issue fills the rest)
  billingLoading: 'Loading, please wait...',
  billingError: (message: string) => `Error loading billing data, ${message}...`,
  billingTimeout: 'Billing data failed to load within timeout',
  creditsRefreshFailed:
    'An unexpected error occurred when refreshing your credits. Please wait a few moments then try again. If the error persists, please contact support.',
  // Errors
  imageLoadFailed: (status: number | string) => `Failed to load image: ${status}`,
  errorDialogTitle: "Oops! We've been notified...",
  dontSend: "Don't send",
  sendFeedback: 'Send my feedback',
  freeTrial: 'Free Trial',
  // Server-side messages (not named by the spec; stable wording)
  wrongCredentials: 'Incorrect email or password.',
  tooManyLogins: 'Too many sign-in attempts. Please wait a few minutes and try again.',
  resendTooSoon: 'Please wait before requesting another verification email.',
  tooManySignups: 'Too many sign-up attempts. Please try again later.',
  codeInvalid: 'This link is invalid or has already been used.',
  codeExpired: 'This link has expired. Please request a new one.',
  tokenExpired: 'Your session has expired. Please sign in again.',
  tokenInvalid: 'Your session is not valid. Please sign in again.',
  impersonationNoRefresh: 'Impersonation sessions cannot be refreshed.',
  wrongCurrentPassword: 'Current password is incorrect.',
  intercomNotConfigured: 'Support chat is not configured on this server.',
  unsupportedContentType: 'Unsupported content type: send application/msgpack or application/json.',
  missingContentType: 'Missing content type: send application/msgpack or application/json.',
  unsupportedContentEncoding: 'Unsupported content encoding: send the body uncompressed (no Content-Encoding, or identity).',
  /** A string of a call holding a control character; `field` is its path ('name', 'items.0.name', 'body key "a\\u0000"'). */
  controlCharacter: (field: string, found: string) => `${field} must not contain control characters (found ${found}).`,
  /** The same, for free text that may hold tabs and line breaks (search text, feedback). */
  controlCharacterInText: (field: string, found: string) =>
    `${field} must not contain control characters other than tabs and line breaks (found ${found}).`,
  invalidUnicode: (field: string, found: string) => `${field} must be valid Unicode text (found a lone surrogate, ${found}).`,
  internal: 'Something went wrong on our side. Please try again; if it persists, contact support with this id.',
  /** A request cut short because the server is stopping (not named by the spec): try again once it is back. */
  shuttingDown: 'The server is restarting. Please try again in a moment.',
  notFound: 'Not found.',
  alreadyVerified: 'Your email is already verified.',
} as const;
