import { useSnapshot } from 'valtio';
import type { BillingInfo } from '../../contract';
import { credits, type CreditsState } from '../state/credits';

/**
 * The credits store for a component. The info is stored as a valtio `ref` (replaced whole, never
 * edited), so the snapshot hands back the very object fetched and it can be typed as such.
 */
export function useCredits(): Omit<CreditsState, 'info'> & { info: BillingInfo | null } {
  const snap = useSnapshot(credits);
  return { info: snap.info as BillingInfo | null, status: snap.status, error: snap.error, accountId: snap.accountId };
}
