import type { ReactNode } from 'react';

/** Seam for a section another issue builds: a titled page that says plainly it has nothing yet. */
export function SectionPlaceholder({
  title,
  icon,
  text,
  children,
}: {
  title: string;
  icon: ReactNode;
  text: string;
  children?: ReactNode;
}) {
  return (
    <div className="page">
      <div className="page__header spread">
        <h1 className="page__title">{title}</h1>
      </div>
      <section className="card">
        <div className="empty-state">
          <span className="empty-state__icon">{icon}</span>
          <p className="empty-state__text">{text}</p>
          {children}
        </div>
      </section>
    </div>
  );
}
