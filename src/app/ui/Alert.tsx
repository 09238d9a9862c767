import type { ReactNode } from 'react';
import { IconAlert, IconCheck, IconInfo } from './icons';

export type AlertTone = 'error' | 'warning' | 'success' | 'info';

const ICONS = { error: IconAlert, warning: IconAlert, success: IconCheck, info: IconInfo } as const;

/** An inline message box. Errors and warnings are announced as alerts. */
export function Alert({ tone, title, children }: { tone: AlertTone; title?: ReactNode; children?: ReactNode }) {
  const Icon = ICONS[tone];
  return (
    <div className={`alert alert--${tone}`} role={tone === 'error' || tone === 'warning' ? 'alert' : 'status'}>
      <Icon size={18} className="alert__icon" />
      <div className="alert__body">
        {title && <div className="alert__title">{title}</div>}
        {children && <div className="alert__text">{children}</div>}
      </div>
    </div>
  );
}
