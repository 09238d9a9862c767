import { Component, useEffect, type ReactNode } from 'react';
import { useRouteError } from 'react-router-dom';
import { reportError } from '../state/errorDialog';

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

/** The router's error element: a route that threw while rendering or loading reports here. */
export function RouteError() {
  const error = useRouteError();
  useEffect(() => reportError(error), [error]);
  return null;
}
