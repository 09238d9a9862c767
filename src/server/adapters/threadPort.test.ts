import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { createRpcClient, serveRpc, withTransfer, WorkerRpcError } from '../../workers/rpc';
import { threadPort } from './threadPort';

// The browser workers' RPC over node:worker_threads' ports (EventEmitter `on`, not addEventListener).
type Protocol = {
  sum: { params: { values: Float32Array }; result: number };
  buffer: { params: { n: number }; result: ArrayBuffer };
  fail: { params: { why: string }; result: never };
};

const channels: MessageChannel[] = [];
afterEach(() => channels.splice(0).forEach((c) => c.port1.close()));

function connect() {
  const channel = new MessageChannel();
  channels.push(channel);
  let sent: ArrayBuffer | null = null;
  serveRpc<Protocol>(threadPort(channel.port2), {
    sum: ({ values }) => values.reduce((a, b) => a + b, 0),
    buffer: ({ n }) => {
      sent = new ArrayBuffer(n);
      return withTransfer(sent, [sent]);
    },
    fail: ({ why }) => {
      throw Object.assign(new RangeError(why), { code: 'too_big' });
    },
  });
  return { rpc: createRpcClient<Protocol>(threadPort(channel.port1)), sent: () => sent };
}

describe('threadPort', () => {
  it('carries calls, transfers and error envelopes between worker_threads ports', async () => {
    const { rpc, sent } = connect();
    const values = Float32Array.from([1, 2, 3.5]);
    expect(await rpc.call('sum', { values }, [values.buffer])).toBe(6.5);
    expect(values.byteLength).toBe(0); // handed over, not copied
    expect((await rpc.call('buffer', { n: 64 })).byteLength).toBe(64);
    expect(sent()!.byteLength).toBe(0);
    const error = await rpc.call('fail', { why: 'no room' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkerRpcError);
    expect(error).toMatchObject({ message: 'no room', code: 'too_big', remoteName: 'RangeError' });
  });
});
