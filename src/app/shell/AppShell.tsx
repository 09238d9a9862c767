import { useEffect, type ReactNode } from 'react';
import { Outlet } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { DRAWER_OPEN_PX, DRAWER_TEMPORARY_BELOW_PX, ROUTES } from '../../contract';
import { prestartThumbnailWorker } from '../../workers/thumbnails/thumbnailSource';
import { useMediaQuery } from '../hooks/useMediaQuery';
import { layout } from '../state/layout';
import { SupportChat } from '../supportChat/SupportChat';
import { session } from '../state/session';
import { Sheet } from '../ui/Dialog';
import { IconMenu, Logo } from '../ui/icons';
import { AccountMenu } from './AccountMenu';
import { BrandLink } from './BrandLink';
import { CreditsBox } from './CreditsBox';
import { ImpersonationBanner } from './ImpersonationBanner';
import { NavDrawer, NavList } from './NavDrawer';
import './shell.css';

/** The frame of signed-in pages: impersonation banner, header, navigation drawer and the page. */
export function AppShell({ children }: { children?: ReactNode }) {
  const { user } = useSnapshot(session);
  const { drawerExpanded, drawerSheetOpen } = useSnapshot(layout);
  const temporary = useMediaQuery(`(max-width: ${DRAWER_TEMPORARY_BELOW_PX - 0.02}px)`);
  // Unverified accounts get no navigation; an account still loading keeps it, to avoid a flash.
  const showNav = user?.isVerified !== false;
  const verified = user?.isVerified === true;
  // The moment timeline's thumbnail worker, started once the page is idle: the first moment opened
  // then does not wait for the worker's start.
  useEffect(() => {
    if (!verified) return;
    if (typeof requestIdleCallback === 'undefined') {
      const timer = setTimeout(prestartThumbnailWorker, 1000);
      return () => clearTimeout(timer);
    }
    const handle = requestIdleCallback(prestartThumbnailWorker, { timeout: 5000 });
    return () => cancelIdleCallback(handle);
  }, [verified]);

  const toggleDrawer = () => {
    if (temporary) layout.drawerSheetOpen = !layout.drawerSheetOpen;
    else layout.drawerExpanded = !layout.drawerExpanded;
  };

  return (
    <div className="shell">
      <SupportChat />
      <ImpersonationBanner />
      <header className="header">
        <div className="header__start">
          {showNav && (
            <button
              type="button"
              className="icon-btn"
              onClick={toggleDrawer}
              aria-label={temporary || !drawerExpanded ? 'Open navigation' : 'Collapse navigation'}
              aria-expanded={temporary ? drawerSheetOpen : drawerExpanded}
            >
              <IconMenu />
            </button>
          )}
          <BrandLink to={ROUTES.workspace} logoSize={28} />
        </div>
        <div className="header__end">
          <CreditsBox />
          <AccountMenu />
        </div>
      </header>
      <div className="shell__body">
        {showNav && !temporary && <NavDrawer expanded={drawerExpanded} />}
        <main className="shell__main" id="main">
          {children ?? <Outlet />}
        </main>
      </div>
      {showNav && temporary && (
        <Sheet open={drawerSheetOpen} onOpenChange={(open) => (layout.drawerSheetOpen = open)} title="Navigation" width={DRAWER_OPEN_PX}>
          <div className="sheet__brand">
            <Logo size={26} />
            <span className="brand__name">Clipseek</span>
          </div>
          <NavList compact={false} onNavigate={() => (layout.drawerSheetOpen = false)} />
        </Sheet>
      )}
    </div>
  );
}
