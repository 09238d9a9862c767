import { API, MSG_EXTERNAL, type ExternalAddAnswer, type ExternalBulkBody, type ExternalUrlBody, type LinkInfo } from '../../contract';
import type { ApiClient } from './client';

/** A link-info request given up because the URL changed (section 7: this error is ignored). */
export class RequestCancelledError extends Error {
  override readonly name = 'RequestCancelledError';
  constructor() {
    super(MSG_EXTERNAL.requestCancelled);
  }
}

const cancellable = async <T>(p: Promise<T>, signal?: AbortSignal): Promise<T> => {
  try {
    return await p;
  } catch (e) {
    if (signal?.aborted) throw new RequestCancelledError();
    throw e;
  }
};

/** Link import calls (libraries spec section 7). */
export function createExternalApi(client: ApiClient) {
  return {
    peek: (url: string, signal?: AbortSignal) =>
      cancellable(
        client.request<LinkInfo>(API.externalPeek, { method: 'POST', body: { url } satisfies ExternalUrlBody, auth: 'required', signal }),
        signal,
      ),
    unwind: (url: string, signal?: AbortSignal) =>
      cancellable(
        client.request<LinkInfo>(API.externalUnwind, { method: 'POST', body: { url } satisfies ExternalUrlBody, auth: 'required', signal }),
        signal,
      ),
    add: (libraryId: string, folderId: string, url: string) =>
      client.request<ExternalAddAnswer>(API.externalAdd(libraryId, folderId), {
        method: 'POST',
        body: { url } satisfies ExternalUrlBody,
        auth: 'required',
      }),
    bulk: (libraryId: string, folderId: string, body: ExternalBulkBody) =>
      client.request<ExternalAddAnswer>(API.externalBulk(libraryId, folderId), { method: 'POST', body, auth: 'required' }),
  };
}

export type ExternalApi = ReturnType<typeof createExternalApi>;
