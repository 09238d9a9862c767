import { useEffect, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { ROUTES } from '../../../contract';
import './legal.css';

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

/** A legal page: title, date, table of contents and numbered sections; honours #section links. */
export function LegalDocument({
  title,
  updated,
  intro,
  sections,
}: {
  title: string;
  updated: string;
  intro: ReactNode;
  sections: LegalSection[];
}) {
  const { hash } = useLocation();
  useEffect(() => {
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (target) target.scrollIntoView({ block: 'start' });
    else window.scrollTo(0, 0);
  }, [hash]);

  return (
    <article className="legal">
      <header className="legal__header">
        {/* Both documents cover the web app and the extension (their first section says so), not the extension alone. */}
        <p className="legal__eyebrow">Clipseek web app and browser extension</p>
        <h1 className="legal__title">{title}</h1>
        <p className="legal__updated">Last updated {updated}</p>
        <div className="legal__intro">{intro}</div>
      </header>
      <nav className="legal__toc" aria-label="Contents">
        <ol>
          {sections.map((s) => (
            <li key={s.id}>
              <a href={`#${s.id}`}>{s.title}</a>
            </li>
          ))}
        </ol>
      </nav>
      {sections.map((s, i) => (
        <section key={s.id} id={s.id} className="legal__section">
          <h2>
            {i + 1}. {s.title}
          </h2>
          {s.body}
        </section>
      ))}
      <footer className="legal__footer">
        <Link to={ROUTES.privacy}>Privacy Policy</Link>
        <Link to={ROUTES.terms}>Terms of Service</Link>
      </footer>
    </article>
  );
}
