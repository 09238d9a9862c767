import {
  API,
  type CompilationBody,
  type CompilationExportBody,
  type CompilationSubtitlesBody,
  type FramingAnswer,
  type FramingQuery,
  type GifBody,
  type RenderAnswer,
} from '../../contract';
import type { ApiClient, FileAnswer } from './client';

/** Rendering calls (libraries spec section 7): a POST answers 200 with the url, or 202 to poll. */
export function createRenderingApi(client: ApiClient) {
  return {
    compilation: (body: CompilationBody, signal?: AbortSignal) =>
      client.request<RenderAnswer>(API.renderCompilation, { method: 'POST', body, auth: 'required', signal }),
    gif: (libraryId: string, mediaId: string, body: GifBody, signal?: AbortSignal) =>
      client.request<RenderAnswer>(API.renderGif(libraryId, mediaId), { method: 'POST', body, auth: 'required', signal }),
    status: (renderId: string, signal?: AbortSignal) =>
      client.request<RenderAnswer>(API.renderStatus(renderId), { auth: 'required', signal }),
    /** Issue 39: the compilation's subtitles (SRT or WebVTT), a file. */
    subtitles: (body: CompilationSubtitlesBody, signal?: AbortSignal) =>
      client.request<FileAnswer>(API.renderSubtitles, { method: 'POST', body, auth: 'required', signal, file: true }),
    /** Issue 39: the compilation as a video editor's project, a file. */
    exportProject: (body: CompilationExportBody, signal?: AbortSignal) =>
      client.request<FileAnswer>(API.renderExport, { method: 'POST', body, auth: 'required', signal, file: true }),
    /** Issue 39: the automatic crop path of a media range for an aspect. */
    framing: (libraryId: string, mediaId: string, query: FramingQuery, signal?: AbortSignal) =>
      client.request<FramingAnswer>(API.mediaFraming(libraryId, mediaId), { auth: 'required', query: { ...query }, signal }),
  };
}

export type RenderingApi = ReturnType<typeof createRenderingApi>;
