import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { UsageHistoryEntry } from '../../../contract';
import { errorMessage } from '../../api/errorMessage';
import { billingApi } from '../../api/instance';
import { queryKeys } from '../../api/queryKeys';
import { useAccountId } from '../../hooks/useAccountId';
import { formatCredits, formatDate, nextUsageCursor } from '../../state/billingFigures';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Spinner } from '../../ui/Spinner';

/**
 * The credits history: what was granted and what was charged, newest first, ten at a time
 * (spec section 7). `version` changes when the balance changed, to reload from the start (the
 * list shown stays until the new one is there).
 */
export function UsageHistory({ version }: { version: unknown }) {
  const accountId = useAccountId();
  const query = useInfiniteQuery({
    queryKey: queryKeys.usageHistory(accountId ?? '', version),
    queryFn: ({ pageParam }) => billingApi.usageHistory(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: UsageHistoryEntry[]) => nextUsageCursor(last) ?? undefined,
    enabled: accountId !== null,
    placeholderData: keepPreviousData,
    retry: false,
    networkMode: 'always',
  });
  const entries = query.data?.pages.flat() ?? [];
  const busy = query.isFetching || query.isPending;
  // A request under way clears the last one's error, as each new one did.
  const error = query.error && !query.isFetching ? errorMessage(query.error) : null;
  const more = query.hasNextPage && !query.isPlaceholderData;

  return (
    <div className="usage">
      {error && <Alert tone="error">{error}</Alert>}
      {entries.length > 0 ? (
        <ul className="usage__list">
          {entries.map((e) => (
            <li key={e._id} className="usage__item">
              <span className="usage__date">{formatDate(e.updatedAt)}</span>
              <span className="usage__reason">{e.reason}</span>
              <span className={`usage__amount usage__amount--${e.kind}`}>
                {e.kind === 'grant' ? '+' : '−'}
                {formatCredits(Math.abs(e.amount))}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        !busy && !error && <p className="muted billing-empty">No credit activity yet.</p>
      )}
      {busy && entries.length === 0 && (
        <div className="usage__busy">
          <Spinner size={18} label="Loading credit activity" />
        </div>
      )}
      {more && (
        <div className="usage__more">
          <Button variant="secondary" size="sm" busy={busy} onClick={() => void query.fetchNextPage()}>
            Show older activity
          </Button>
        </div>
      )}
    </div>
  );
}
