/// <reference lib="webworker" />
import { domPort, serveRpc, type RpcEndpoint } from '../rpc';
import type { FingerprintProtocol } from './fingerprint.protocol';
import { fingerprintOf } from './fingerprintSample';

// Hashing runs here so that reading and digesting never stalls the page while uploads are queued.
serveRpc<FingerprintProtocol>(domPort(self as unknown as RpcEndpoint), {
  fingerprint: async ({ file }) => ({ uniqueId: await fingerprintOf(file) }),
});
