import { useSnapshot } from 'valtio';
import { MSG } from '../../contract';
import { useNow } from '../hooks/useNow';
import { layout } from '../state/layout';
import { session } from '../state/session';
import { minutesLeft } from '../state/tokenClaims';
import { IconAlert, IconClose } from '../ui/icons';

/** Warns support staff that they act inside someone else's account, and for how much longer. */
export function ImpersonationBanner() {
  const { claims, user } = useSnapshot(session);
  const { impersonationBannerHidden } = useSnapshot(layout);
  const now = useNow(15_000);
  if (!claims?.impersonatedBy || impersonationBannerHidden) return null;
  const minutes = minutesLeft(claims, now);
  return (
    <div className="impersonation" role="alert">
      <IconAlert size={18} className="impersonation__icon" />
      <div className="impersonation__text">
        <strong>{MSG.impersonationWarning}</strong>
        <span className="impersonation__sep" aria-hidden="true">
          ·
        </span>
        <span className="impersonation__email">{user?.email ?? claims.email}</span>
        <span className="impersonation__badge">{MSG.fullControl}</span>
        <span className="impersonation__time">
          {minutes} {minutes === 1 ? 'minute' : 'minutes'} left
        </span>
      </div>
      <button type="button" className="impersonation__hide" onClick={() => (layout.impersonationBannerHidden = true)}>
        <IconClose size={16} />
        Hide
      </button>
    </div>
  );
}
