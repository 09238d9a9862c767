import type { RpcMessage } from '../rpc';

/** Messages of the upload fingerprint worker (a type alias, so it satisfies RpcProtocol's index). */
export type FingerprintProtocol = {
  /** Fingerprint of a file (size + SHA-256 of its first and last 8192 bytes); only those slices are read. */
  fingerprint: { params: { file: Blob }; result: { uniqueId: string } };
};

export type FingerprintMessage = RpcMessage<FingerprintProtocol>;
