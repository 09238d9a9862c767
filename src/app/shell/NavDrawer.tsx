import { Link, useLocation } from 'react-router-dom';
import { DRAWER_CLOSED_PX, DRAWER_OPEN_PX } from '../../contract';
import { Tooltip } from '../ui/Tooltip';
import { isCurrent, NAV_ITEMS } from './navItems';

/** The navigation list; `compact` shows icons only (collapsed drawer) with the label as a tooltip. */
export function NavList({ compact, onNavigate }: { compact: boolean; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  return (
    <nav aria-label="Main" className="nav">
      <ul className="nav__list">
        {NAV_ITEMS.map((item) => {
          const current = isCurrent(item, pathname);
          return (
            <li key={item.to}>
              <Tooltip content={item.label} disabled={!compact}>
                <Link
                  to={item.to}
                  className={`nav__item${current ? ' nav__item--current' : ''}${compact ? ' nav__item--compact' : ''}`}
                  aria-current={current ? 'page' : undefined}
                  aria-label={compact ? item.label : undefined}
                  onClick={onNavigate}
                >
                  <span className="nav__icon">{item.icon}</span>
                  {!compact && <span className="nav__label">{item.label}</span>}
                </Link>
              </Tooltip>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** The persistent drawer beside the page, 268 px open or 72 px closed. */
export function NavDrawer({ expanded }: { expanded: boolean }) {
  return (
    <aside className="drawer" style={{ width: expanded ? DRAWER_OPEN_PX : DRAWER_CLOSED_PX }} data-expanded={expanded}>
      <NavList compact={!expanded} />
    </aside>
  );
}
