import fs from 'node:fs';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import { createRpcClient, domPort, serveRpc, withTransfer, WorkerRpcError, type RpcEndpoint } from './rpc';

type TestProtocol = {
  add: { params: { a: number; b: number }; result: number };
  fail: { params: { why: string }; result: never };
  bytes: { params: { n: number }; result: { buffer: ArrayBuffer } };
};

const channels: MessageChannel[] = [];
function pair() {
  const channel = new MessageChannel();
  channels.push(channel);
  return { page: domPort(channel.port1 as unknown as RpcEndpoint), worker: domPort(channel.port2 as unknown as RpcEndpoint) };
}
afterEach(() => {
  channels.splice(0).forEach((c) => {
    c.port1.close();
    c.port2.close();
  });
});

describe('worker rpc', () => {
  it('answers calls by type, in any order, each to its own caller', async () => {
    const { page, worker } = pair();
    serveRpc<TestProtocol>(worker, {
      add: async ({ a, b }) => {
        // The first call answers last: ids, not arrival order, pair answers with calls.
        await new Promise((r) => setTimeout(r, a === 1 ? 20 : 0));
        return a + b;
      },
      fail: ({ why }) => {
        throw new Error(why);
      },
      bytes: ({ n }) => ({ buffer: new ArrayBuffer(n) }),
    });
    const rpc = createRpcClient<TestProtocol>(page);
    const [x, y] = await Promise.all([rpc.call('add', { a: 1, b: 2 }), rpc.call('add', { a: 10, b: 20 })]);
    expect([x, y]).toEqual([3, 30]);
    expect(rpc.pending()).toBe(0);
  });

  it('turns a thrown error into an envelope and a WorkerRpcError with its message', async () => {
    const { page, worker } = pair();
    serveRpc<TestProtocol>(worker, {
      add: ({ a, b }) => a + b,
      fail: ({ why }) => {
        throw Object.assign(new TypeError(why), { code: 'bad_input' });
      },
      bytes: ({ n }) => ({ buffer: new ArrayBuffer(n) }),
    });
    const rpc = createRpcClient<TestProtocol>(page);
    const error = await rpc.call('fail', { why: 'no such file' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkerRpcError);
    expect(error).toMatchObject({ message: 'no such file', code: 'bad_input', remoteName: 'TypeError' });
  });

  it('transfers buffers marked withTransfer instead of copying them', async () => {
    const { page, worker } = pair();
    let sent: ArrayBuffer | null = null;
    serveRpc<TestProtocol>(worker, {
      add: ({ a, b }) => a + b,
      fail: () => {
        throw new Error('x');
      },
      bytes: ({ n }) => {
        sent = new ArrayBuffer(n);
        return withTransfer({ buffer: sent }, [sent]);
      },
    });
    const rpc = createRpcClient<TestProtocol>(page);
    const { buffer } = await rpc.call('bytes', { n: 1024 });
    expect(buffer.byteLength).toBe(1024);
    // A transferred buffer is detached on the sending side.
    expect(sent!.byteLength).toBe(0);
  });

  it('rejects pending calls when disposed, and later calls at once with the first reason', async () => {
    const { page } = pair();
    const rpc = createRpcClient<TestProtocol>(page);
    const call = rpc.call('add', { a: 1, b: 1 });
    rpc.dispose();
    await expect(call).rejects.toMatchObject({ code: 'worker_stopped' });
    rpc.dispose(new Error('exited'));
    // Nothing would ever answer a call posted to a stopped worker: it is refused instead of left waiting.
    await expect(rpc.call('add', { a: 2, b: 2 })).rejects.toMatchObject({ code: 'worker_stopped' });
    expect(rpc.pending()).toBe(0);
  });

  it('serves one call at a time, in the order they arrived, when asked to', async () => {
    const { page, worker } = pair();
    const log: string[] = [];
    serveRpc<TestProtocol>(
      worker,
      {
        add: async ({ a, b }) => {
          log.push(`start ${a}`);
          await new Promise((r) => setTimeout(r, a === 1 ? 30 : 0));
          log.push(`end ${a}`);
          return a + b;
        },
        fail: ({ why }) => {
          throw new Error(why);
        },
        bytes: ({ n }) => ({ buffer: new ArrayBuffer(n) }),
      },
      { oneAtATime: true },
    );
    const rpc = createRpcClient<TestProtocol>(page);
    const results = await Promise.all([
      rpc.call('add', { a: 1, b: 1 }),
      rpc.call('fail', { why: 'bad' }).catch((e: Error) => e.message),
      rpc.call('add', { a: 2, b: 2 }),
    ]);
    expect(results).toEqual([2, 'bad', 4]);
    // Without oneAtATime the second add would start while the first waits.
    expect(log).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
  });

  it('answers an unknown method with an error, not silence', async () => {
    const { page, worker } = pair();
    serveRpc<Pick<TestProtocol, 'add'>>(worker, { add: ({ a, b }) => a + b });
    const rpc = createRpcClient<TestProtocol>(page);
    await expect(rpc.call('bytes', { n: 1 })).rejects.toMatchObject({ code: 'unknown_type' });
  });
});

describe('rpc.ts', () => {
  it('imports nothing and touches no DOM or Node global, so the browser and the server both use it', () => {
    const file = new URL('./rpc.ts', import.meta.url);
    const sf = ts.createSourceFile(file.pathname, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const found: string[] = [];
    const platform = new Set(['window', 'document', 'self', 'globalThis', 'process', 'Buffer', 'require', 'navigator']);
    const visit = (node: ts.Node) => {
      if (ts.isImportDeclaration(node) || ts.isImportEqualsDeclaration(node)) found.push(node.getText());
      else if (ts.isIdentifier(node) && platform.has(node.text)) found.push(node.text);
      ts.forEachChild(node, visit);
    };
    visit(sf);
    expect(found).toEqual([]);
  });
});
