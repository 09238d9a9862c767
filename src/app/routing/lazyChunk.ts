import { lazy, type ComponentType } from 'react';

/**
 * A code-split part of the app (a screen, the timeline) that the browser could not fetch: typically
 * the tab was opened before a redeploy and the old chunk's file is gone, or the network dropped.
 * Nothing but a reload fixes it, since the import's failure is cached for the life of the page.
 */
export class ChunkLoadError extends Error {
  override readonly name = 'ChunkLoadError';
  readonly code = 'chunk_load_failed';

  constructor(readonly cause: unknown) {
    super(`A part of the app failed to load: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

export const isChunkLoadError = (e: unknown): e is ChunkLoadError => e instanceof ChunkLoadError;

/** Runs a dynamic `import()`, turning its failure into a `ChunkLoadError`. */
export const loadChunk = <M>(load: () => Promise<M>): Promise<M> =>
  load().catch((e: unknown) => {
    throw new ChunkLoadError(e);
  });

type ComponentKey<M> = { [K in keyof M]: M[K] extends ComponentType<never> ? K : never }[keyof M];

/** A route `lazy` that loads a screen module and renders its `name` export (the default export unless named). */
export function lazyRoute<M extends object>(load: () => Promise<M>, name: ComponentKey<M> = 'default' as ComponentKey<M>) {
  return async () => ({ Component: (await loadChunk(load))[name] as ComponentType });
}

/**
 * `React.lazy` for a component that `load` picks out of a dynamic import (`import(...).then((m) => m.X)`);
 * render it inside `<Suspense>` and a `ChunkErrorBoundary`.
 */
export const lazyComponent = <P extends object>(load: () => Promise<ComponentType<P>>) =>
  lazy(async () => ({ default: await loadChunk(load) }));
