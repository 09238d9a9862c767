/** Entity shapes shared by app and server. */
export interface User {
  _id: string;
  email: string;
  name: string;
  createdAt: string;
  isVerified: boolean;
  settings: UserSettings;
}

export type LibraryViewMode = 'list' | 'grid';

/** The six UI preferences saved on the account (libraries spec, section 3). */
export interface UiPreferences {
  enableSounds: boolean;
  autoplayVideos: boolean;
  autoplaymoments: boolean;
  libraryViewMode: LibraryViewMode;
  processingListModalActiveKeys: string[];
  failedListModalActiveKeys: string[];
}

export type UserSettings = UiPreferences;

export const DEFAULT_UI_PREFERENCES: UiPreferences = {
  enableSounds: true,
  autoplayVideos: false,
  autoplaymoments: false,
  libraryViewMode: 'list',
  processingListModalActiveKeys: ['uploading', 'indexing', 'queued.upload', 'queued.indexing'],
  failedListModalActiveKeys: ['failed.uploads', 'failed.indexing'],
};

/** Decoded session token claims. */
export interface TokenClaims {
  sub: string;
  email: string;
  exp: number;
  iat: number;
  /** Support staff email, present only on impersonation sessions. */
  impersonatedBy?: string;
}

export interface FeedbackInput {
  name: string;
  email: string;
  comments: string;
  error: string;
}

export interface IntercomAnswer {
  intercomToken: string;
  expiresAt: string;
}

export interface ResetRequestAnswer {
  /** Seconds until another request is accepted. */
  retryAfterSeconds: number;
}
