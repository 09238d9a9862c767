import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { SW_REFRESH_ACCOUNT_DETAILS } from '../../contract';

/** Runs public/service-worker.js against a fake worker scope and returns its event handlers. */
function loadWorker(clientIds: string[]) {
  const handlers: Record<string, (event: unknown) => void> = {};
  const clients = clientIds.map((id) => ({ id, postMessage: vi.fn() }));
  const waits: Promise<unknown>[] = [];
  const scope = {
    addEventListener: (type: string, fn: (event: unknown) => void) => (handlers[type] = fn),
    skipWaiting: vi.fn(),
    clients: { claim: vi.fn(async () => {}), matchAll: vi.fn(async () => clients) },
  };
  const source = readFileSync(path.resolve(__dirname, '../../../public/service-worker.js'), 'utf8');
  new Function('self', source)(scope);
  const dispatch = async (type: string, event: object = {}) => {
    handlers[type]!({ ...event, waitUntil: (p: Promise<unknown>) => waits.push(p) });
    await Promise.all(waits);
  };
  return { clients, scope, dispatch };
}

describe('service worker', () => {
  it('tells every open tab to refresh the account when it takes over', async () => {
    const { clients, scope, dispatch } = loadWorker(['a', 'b']);
    await dispatch('install');
    expect(scope.skipWaiting).toHaveBeenCalled();
    await dispatch('activate');
    expect(scope.clients.claim).toHaveBeenCalled();
    for (const c of clients) expect(c.postMessage).toHaveBeenCalledWith({ type: SW_REFRESH_ACCOUNT_DETAILS });
  });

  it("relays a tab's account change to the other tabs only", async () => {
    const { clients, dispatch } = loadWorker(['a', 'b', 'c']);
    await dispatch('message', { data: { type: SW_REFRESH_ACCOUNT_DETAILS }, source: { id: 'b' } });
    expect(clients[0]!.postMessage).toHaveBeenCalledOnce();
    expect(clients[1]!.postMessage).not.toHaveBeenCalled();
    expect(clients[2]!.postMessage).toHaveBeenCalledOnce();
  });

  it('ignores other messages', async () => {
    const { clients, dispatch } = loadWorker(['a']);
    await dispatch('message', { data: { type: 'SOMETHING_ELSE' }, source: { id: 'x' } });
    expect(clients[0]!.postMessage).not.toHaveBeenCalled();
  });
});
