// Turning metrics on: load prom-client (only now: a berthd without `[metrics] address` never pays
// its memory or start-up time), install its recorder for the whole daemon, and serve /metrics on
// the address. stop() puts the no-op recorder back and closes the listener.
import { invalidArgument, messageOf, unavailable } from '../errdefs/errors';
import { parseListenAddress } from './address';
import { installMetricsRecorder } from './index';

export interface MetricsService {
  /** "host:port" as bound (the real port when 0 was asked for). */
  readonly address: string;
  stop(): Promise<void>;
}

export async function startMetrics(address: string): Promise<MetricsService> {
  const at = parseListenAddress(address);
  if (!at) throw invalidArgument(`metrics address ${JSON.stringify(address)}: expected host:port`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createPrometheusRecorder } = require('./prometheus') as typeof import('./prometheus');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { listenMetrics } = require('./http_server') as typeof import('./http_server');
  const recorder = createPrometheusRecorder();
  const server = await listenMetrics(recorder.registry, at).catch((err: unknown) => {
    throw unavailable(`metrics address ${address}: cannot listen: ${messageOf(err)}`, err);
  });
  const uninstall = installMetricsRecorder(recorder);
  const { family, address: host, port } = server.address;
  return {
    address: family === 'IPv6' ? `[${host}]:${port}` : `${host}:${port}`,
    stop: async () => {
      uninstall();
      await server.close();
    },
  };
}
