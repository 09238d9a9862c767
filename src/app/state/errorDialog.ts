import { proxy } from 'valtio';

/** The one crash report on screen; later errors while it is open are appended, not stacked. */
export const errorDialog = proxy<{ error: string | null }>({ error: null });

export function describeError(error: unknown): string {
  if (error instanceof Error)
    return error.stack && error.stack.includes(error.message) ? error.stack : `${error.name}: ${error.message}\n${error.stack ?? ''}`;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

export function reportError(error: unknown) {
  const text = describeError(error);
  // React's development double-render and repeated window events report the same failure twice.
  if (errorDialog.error?.includes(text)) return;
  errorDialog.error = errorDialog.error ? `${errorDialog.error}\n\n${text}` : text;
}

// Browsers report these benign layout notices as errors; they say nothing about the app's health.
const IGNORED = [/ResizeObserver loop/i];

/** Routes uncaught errors and rejections to the error dialog. */
export function installGlobalErrorHandlers() {
  window.addEventListener('error', (event) => {
    const message = event.error instanceof Error ? event.error.message : event.message;
    if (IGNORED.some((re) => re.test(message ?? ''))) return;
    reportError(event.error ?? event.message);
  });
  window.addEventListener('unhandledrejection', (event) => {
    if (event.reason instanceof DOMException && event.reason.name === 'AbortError') return;
    reportError(event.reason);
  });
}
