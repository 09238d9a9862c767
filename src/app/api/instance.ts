import { API_BASE, API_FORMAT } from '../config';
import { clearSession, sessionTokenStore } from '../state/session';
import { createAccountApi } from './account';
import { createBillingApi } from './billing';
import { createExternalApi } from './external';
import { createApiClient } from './client';
import { createLibraryApi } from './library';
import { createRenderingApi } from './rendering';
import { createSearchApi } from './search';
import { createTranscriptApi } from './transcripts';

/** The app's one API client: the session store holds its token, and a refused token ends the session. */
export const apiClient = createApiClient({
  tokens: sessionTokenStore,
  baseUrl: API_BASE,
  format: API_FORMAT,
  onTokenInvalidated: () => clearSession('invalidated'),
});

export const api = createAccountApi(apiClient);

export const libraryApi = createLibraryApi(apiClient);

export const billingApi = createBillingApi(apiClient);

export const searchApi = createSearchApi(apiClient);

export const renderingApi = createRenderingApi(apiClient);

export const externalApi = createExternalApi(apiClient);

export const transcriptApi = createTranscriptApi(apiClient);
