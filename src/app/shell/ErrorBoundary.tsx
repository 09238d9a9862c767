import { Component, useEffect, type ReactNode } from 'react';
import { useRouteError } from 'react-router-dom';
import { isChunkLoadError } from '../routing/lazyChunk';
import { reportError } from '../state/errorDialog';
import { ChunkLoadFailed } from './ChunkLoadFailed';

/** Catches render errors outside the router and hands them to the global error dialog. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    reportError(error);
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

/**
 * The router's error element: a route that threw while rendering or loading reports here. A screen
 * whose code did not arrive says so in place, with a reload, instead of leaving the page blank.
 */
export function RouteError() {
  const error = useRouteError();
  const chunkFailed = isChunkLoadError(error);
  useEffect(() => {
    if (!chunkFailed) reportError(error);
  }, [error, chunkFailed]);
  return chunkFailed ? <ChunkLoadFailed /> : null;
}
