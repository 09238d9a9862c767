import { useSnapshot } from 'valtio';
import { session } from '../state/session';

/** The signed-in account (token subject) for a component's query keys, or null. */
export function useAccountId(): string | null {
  const { token, claims } = useSnapshot(session);
  return token ? (claims?.sub ?? null) : null;
}
