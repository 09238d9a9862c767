import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread from a TypeScript module. The server runs from sources through tsx, and on
 * Node 20 a worker does not inherit tsx's loader, so the worker first registers it, then imports
 * the module.
 */
export function spawnTsWorker(moduleUrl: URL, options: WorkerOptions = {}): Worker {
  const bootstrap = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(moduleUrl.href)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}
