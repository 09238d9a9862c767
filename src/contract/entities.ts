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

/**
 * What the account's settings hold: the six preferences, and the libraries the search page opens on
 * (issue 37, item 8): the ones last searched, browsed or uploaded into, on any device. Without them
 * it opens on an own library holding media, and on the demo library only when there is none.
 */
export interface UserSettings extends UiPreferences {
  lastLibraryIds?: string[];
}

/** Most libraries a search (and so the remembered selection) can name. */
export const LAST_LIBRARIES_MAX = 32;

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
