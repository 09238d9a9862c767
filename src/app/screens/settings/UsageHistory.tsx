import { useCallback, useEffect, useRef, useState } from 'react';
import type { UsageHistoryEntry } from '../../../contract';
import { errorMessage } from '../../api/errorMessage';
import { billingApi } from '../../api/instance';
import { formatCredits, formatDate, nextUsageCursor } from '../../state/billingFigures';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Spinner } from '../../ui/Spinner';

/**
 * The credits history: what was granted and what was charged, newest first, ten at a time
 * (spec section 7). `version` changes when the balance changed, to reload from the start.
 */
export function UsageHistory({ version }: { version: unknown }) {
  const [entries, setEntries] = useState<UsageHistoryEntry[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [busy, setBusy] = useState(true);
  const [error, setError] = useState<string | null>(null);
  // Only the latest request may write: a reload started after "load more" wins.
  const request = useRef(0);

  const load = useCallback(async (olderThan?: string) => {
    const mine = ++request.current;
    setBusy(true);
    setError(null);
    try {
      const page = await billingApi.usageHistory(olderThan);
      if (mine !== request.current) return;
      setEntries((prev) => (olderThan ? [...prev, ...page] : page));
      setCursor(nextUsageCursor(page));
    } catch (e) {
      if (mine === request.current) setError(errorMessage(e));
    } finally {
      if (mine === request.current) setBusy(false);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load, version]);

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
      {cursor && (
        <div className="usage__more">
          <Button variant="secondary" size="sm" busy={busy} onClick={() => void load(cursor)}>
            Show older activity
          </Button>
        </div>
      )}
    </div>
  );
}
