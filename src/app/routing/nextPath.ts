import { safeNextPath } from '../../contract';

/**
 * `path` carrying on where the visitor was going (`next`, when it is a safe same-origin path), so that
 * it survives the way from /login to /register, to /verify-email and back: every way of signing in
 * ends where the visitor was going. An unsafe or missing `next` is left off.
 */
export function withNext(path: string, next: string | null, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(extra);
  if (next && safeNextPath(next, '') === next) params.set('next', next);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}
