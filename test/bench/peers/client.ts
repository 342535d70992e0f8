// The bench's CRI client for one daemon: the harness's CriClient shape, but on a channel with its
// own subchannel pool, so a client made after a daemon restart never inherits a connection (or a
// reconnect backoff) that grpc-js pooled for the process that died.
import * as grpc from '@grpc/grpc-js';
import { berthServices, promiseClient, unixTarget } from '../../../internal/api/cri';
import type { CriClient } from '../../harness/cri_client';

const CHANNEL_OPTIONS: grpc.ClientOptions = { 'grpc.use_local_subchannel_pool': 1 };

export function benchCriClient(socketPath: string): CriClient {
  const services = berthServices();
  const target = unixTarget(socketPath);
  const credentials = grpc.credentials.createInsecure();
  const raw = {
    runtime: new services.runtime(target, credentials, CHANNEL_OPTIONS),
    image: new services.image(target, credentials, CHANNEL_OPTIONS),
    admin: new services.admin(target, credentials, CHANNEL_OPTIONS),
  };
  return {
    runtime: promiseClient(raw.runtime, services.runtime.service),
    image: promiseClient(raw.image, services.image.service),
    admin: promiseClient(raw.admin, services.admin.service),
    raw,
    close: () => {
      raw.runtime.close();
      raw.image.close();
      raw.admin.close();
    },
  };
}
