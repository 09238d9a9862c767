import { useQuery } from '@tanstack/react-query';
import type { TranscriptCorrection } from '../../contract';
import { errorMessage } from '../api/errorMessage';
import { transcriptApi } from '../api/instance';
import { queryKeys } from '../api/queryKeys';
import { useAccountId } from '../hooks/useAccountId';

type Loaded = { status: 'loading' } | { status: 'ready'; corrections: TranscriptCorrection[] } | { status: 'error'; message: string };

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** One transcript line's recorded changes, newest first: when, by whom, from what to what. */
export function TranscriptHistory({ libraryId, mediaId, segmentId }: { libraryId: string; mediaId: string; segmentId: string }) {
  const accountId = useAccountId();
  // Asked afresh each time it opens (gcTime 0), and again after the line is saved (useTranscript).
  const query = useQuery({
    queryKey: queryKeys.corrections(accountId ?? '', libraryId, mediaId, segmentId),
    queryFn: ({ signal }) => transcriptApi.corrections(libraryId, mediaId, segmentId, signal),
    retry: false,
    networkMode: 'always',
    staleTime: Infinity,
    gcTime: 0,
  });
  const state: Loaded = query.data
    ? { status: 'ready', corrections: query.data.corrections }
    : query.isError
      ? { status: 'error', message: errorMessage(query.error) }
      : { status: 'loading' };

  if (state.status === 'loading') return <p className="transcript-history__note">Loading history…</p>;
  if (state.status === 'error') return <p className="transcript-history__note transcript-history__note--error">{state.message}</p>;
  return (
    <ol className="transcript-history" aria-label="Changes of this line">
      {state.corrections.map((c) => (
        <li key={c.id} className="transcript-history__item">
          <span className="transcript-history__meta">
            <time dateTime={c.at}>{when(c.at)}</time> · {c.via ? `${c.via} (support) for ${c.by}` : c.by}
            {c.kind === 'restore' && ' · restored the original'}
          </span>
          <span className="transcript-history__change">
            <del>{c.oldText}</del> → <ins>{c.newText}</ins>
          </span>
        </li>
      ))}
    </ol>
  );
}
