import type { ReactNode } from 'react';

/** A card saying there is nothing to show: an icon, a title, why, and what to do about it (`children`). */
export function EmptyState({ icon, title, text, children }: { icon: ReactNode; title: string; text: ReactNode; children?: ReactNode }) {
  return (
    <section className="card">
      <div className="empty-state">
        <span className="empty-state__icon">{icon}</span>
        <h2 className="card__title">{title}</h2>
        <p className="empty-state__text">{text}</p>
        {children}
      </div>
    </section>
  );
}
