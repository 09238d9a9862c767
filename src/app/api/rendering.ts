import { API, type CompilationBody, type GifBody, type RenderAnswer } from '../../contract';
import type { ApiClient } from './client';

/** Rendering calls (libraries spec section 7): a POST answers 200 with the url, or 202 to poll. */
export function createRenderingApi(client: ApiClient) {
  return {
    compilation: (body: CompilationBody, signal?: AbortSignal) =>
      client.request<RenderAnswer>(API.renderCompilation, { method: 'POST', body, auth: 'required', signal }),
    gif: (libraryId: string, mediaId: string, body: GifBody, signal?: AbortSignal) =>
      client.request<RenderAnswer>(API.renderGif(libraryId, mediaId), { method: 'POST', body, auth: 'required', signal }),
    status: (renderId: string, signal?: AbortSignal) =>
      client.request<RenderAnswer>(API.renderStatus(renderId), { auth: 'required', signal }),
  };
}

export type RenderingApi = ReturnType<typeof createRenderingApi>;
