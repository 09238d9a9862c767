import type { ReactNode } from 'react';
import { Link, Outlet } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { ROUTES } from '../../contract';
import { session } from '../state/session';
import { Button } from '../ui/Button';
import { BrandLink } from './BrandLink';
import './shell.css';

/** Frame of pages open to visitors (legal pages, pricing): a light header and the page. */
export function PublicLayout({ children }: { children?: ReactNode }) {
  const { token } = useSnapshot(session);
  return (
    <div className="shell">
      <header className="header">
        <div className="header__start">
          <BrandLink logoSize={28} />
        </div>
        <div className="header__end">
          {token ? (
            <Button asChild size="sm">
              <Link to={ROUTES.workspace}>Open Clipseek</Link>
            </Button>
          ) : (
            <>
              <Button asChild variant="ghost" size="sm">
                <Link to={ROUTES.login}>Log in</Link>
              </Button>
              <Button asChild size="sm">
                <Link to={ROUTES.register}>Create an account</Link>
              </Button>
            </>
          )}
        </div>
      </header>
      <main className="shell__main">{children ?? <Outlet />}</main>
    </div>
  );
}
