import type { ReactNode } from 'react';
import { Link, Outlet } from 'react-router-dom';
import { MSG, ROUTES } from '../../../contract';
import { AuthHero } from '../../hero/AuthHero';
import { BrandLink } from '../../shell/BrandLink';
import { IconMail } from '../../ui/icons';
import './auth.css';

/** Frame of the auth screens: the form column and the video hero beside it. */
export function AuthLayout() {
  return (
    <div className="auth">
      <div className="auth__panel">
        <header className="auth__top">
          <BrandLink logoSize={30} />
        </header>
        <main className="auth__main">
          <div className="auth__form-area">
            <Outlet />
          </div>
        </main>
        <footer className="auth__footer">
          <span>© {new Date().getFullYear()} Clipseek</span>
          <nav aria-label="Legal" className="auth__legal">
            <Link to={ROUTES.privacy}>Privacy</Link>
            <Link to={ROUTES.terms}>Terms</Link>
          </nav>
        </footer>
      </div>
      <AuthHero />
    </div>
  );
}

/** Heading block shared by the auth screens. */
export function AuthHeading({ title, subtitle, icon }: { title: string; subtitle?: ReactNode; icon?: ReactNode }) {
  return (
    <div className="auth-heading">
      {icon && <div className="auth-heading__icon icon-tile">{icon}</div>}
      <h1 className="auth-heading__title">{title}</h1>
      {subtitle && <p className="auth-heading__subtitle">{subtitle}</p>}
    </div>
  );
}

/** The 'Check your email' heading; `children` says what was sent to which address. */
export function CheckEmailHeading({ children }: { children: ReactNode }) {
  return <AuthHeading icon={<IconMail size={24} />} title={MSG.checkYourEmail} subtitle={children} />;
}
