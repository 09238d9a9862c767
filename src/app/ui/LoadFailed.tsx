import type { ReactNode } from 'react';
import { Alert } from './Alert';
import { Button } from './Button';

/** What failed to load, why, and a 'Try again' button. */
export function LoadFailed({ title, children, onRetry }: { title: string; children?: ReactNode; onRetry: () => void }) {
  return (
    <div className="stack">
      <Alert tone="error" title={title}>
        {children}
      </Alert>
      <div>
        <Button variant="secondary" onClick={onRetry}>
          Try again
        </Button>
      </div>
    </div>
  );
}
