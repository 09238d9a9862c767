import { Component, type ReactNode } from 'react';
import { isChunkLoadError } from '../routing/lazyChunk';
import { Alert } from '../ui/Alert';
import { Button } from '../ui/Button';

/**
 * What a visitor sees when a code-split part of the app did not arrive (see `ChunkLoadError`): what
 * happened, and a reload, which fetches the current version. `inline` fits it into a slot of a screen.
 */
export function ChunkLoadFailed({ what = 'This page', inline = false }: { what?: string; inline?: boolean }) {
  const body = (
    <div className="stack">
      <Alert tone="error" title={`${what} couldn't load`}>
        Clipseek may have been updated since this tab was opened, or the connection dropped. Reload to get the latest version.
      </Alert>
      <div>
        <Button variant="secondary" onClick={() => window.location.reload()}>
          Reload
        </Button>
      </div>
    </div>
  );
  return inline ? (
    body
  ) : (
    <div className="page chunk-load-failed" data-testid="chunk-load-failed">
      {body}
    </div>
  );
}

/**
 * Around a `lazyComponent` inside a screen: a chunk that fails shows `ChunkLoadFailed` in its place;
 * any other error goes on to the boundary above.
 */
export class ChunkErrorBoundary extends Component<{ what: string; children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    if (isChunkLoadError(error)) return <ChunkLoadFailed what={this.props.what} inline />;
    throw error;
  }
}
