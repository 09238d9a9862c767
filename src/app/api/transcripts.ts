import {
  API,
  type TranscriptCorrectBody,
  type TranscriptCorrectionsAnswer,
  type TranscriptCorrectionsQuery,
  type TranscriptLine,
} from '../../contract';
import type { ApiClient } from './client';

/** Corrections of a media's transcript (contract/transcripts.ts; the transcript itself is searchApi.transcript). All need a session. */
export function createTranscriptApi(client: ApiClient) {
  return {
    correct: (libraryId: string, mediaId: string, segmentId: string, text: string) =>
      client.request<TranscriptLine>(API.transcriptSegment(libraryId, mediaId, segmentId), {
        method: 'PATCH',
        body: { text } satisfies TranscriptCorrectBody,
        auth: 'required',
      }),
    restore: (libraryId: string, mediaId: string, segmentId: string) =>
      client.request<TranscriptLine>(API.transcriptSegmentRestore(libraryId, mediaId, segmentId), {
        method: 'POST',
        body: {},
        auth: 'required',
      }),
    corrections: (libraryId: string, mediaId: string, segmentId?: string, signal?: AbortSignal) =>
      client.request<TranscriptCorrectionsAnswer>(API.transcriptCorrections(libraryId, mediaId), {
        auth: 'required',
        query: { segmentId } satisfies TranscriptCorrectionsQuery,
        signal,
      }),
  };
}

export type TranscriptApi = ReturnType<typeof createTranscriptApi>;
