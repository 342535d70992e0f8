// The /metrics endpoint: a plain HTTP server that answers GET /metrics with the registry in the
// Prometheus text format, and nothing else. It reads no request body, and caps its connections
// and the time a client may take to send its headers, so scrapers cannot tie it up.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { ListenAddress } from './address';

const MAX_CONNECTIONS = 32;
const HEADERS_TIMEOUT_MS = 10_000;

export interface MetricsHttpServer {
  /** What the listener is bound to (the real port when 0 was asked for). */
  readonly address: AddressInfo;
  close(): Promise<void>;
}

export function listenMetrics(registry: Registry, at: ListenAddress): Promise<MetricsHttpServer> {
  const server: Server = createServer(async (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: berth serves /metrics only\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('method not allowed\n');
      return;
    }
    try {
      const body = await registry.metrics();
      res.writeHead(200, { 'content-type': registry.contentType });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`collecting metrics failed: ${(err as Error).message}\n`);
    }
  });
  server.maxConnections = MAX_CONNECTIONS;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = HEADERS_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: at.host === '' ? undefined : at.host, port: at.port }, () => {
      server.off('error', reject);
      resolve({
        address: server.address() as AddressInfo,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            // Keep-alive scrapers would hold close() open until they hang up.
            server.closeAllConnections();
          }),
      });
    });
  });
}
