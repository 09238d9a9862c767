import type { ReactNode } from 'react';
import { Link, Outlet } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { ROUTES } from '../../contract';
import { session } from '../state/session';
import { Button } from '../ui/Button';
import { Logo } from '../ui/icons';
import './shell.css';

/** Frame of pages open to visitors (legal pages, pricing): a light header and the page. */
export function PublicLayout({ children }: { children?: ReactNode }) {
  const { token } = useSnapshot(session);
  return (
    <div className="shell">
      <header className="header">
        <div className="header__start">
          <Link to={ROUTES.root} className="brand" aria-label="Clipseek home">
            <Logo size={28} />
            <span className="brand__name">Clipseek</span>
          </Link>
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
