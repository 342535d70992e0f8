// The bench's CRI client for one daemon: the harness's CriClient, but on a channel with its own
// subchannel pool, so a client made after a daemon restart never inherits a connection (or a
// reconnect backoff) that grpc-js pooled for the process that died.
import type * as grpc from '@grpc/grpc-js';
import { criClient, type CriClient } from '../../harness/cri_client';

const CHANNEL_OPTIONS: grpc.ClientOptions = { 'grpc.use_local_subchannel_pool': 1 };

export function benchCriClient(socketPath: string): CriClient {
  return criClient(socketPath, CHANNEL_OPTIONS);
}
