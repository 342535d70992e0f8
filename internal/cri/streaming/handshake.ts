// HTTP-level pieces of the upgrade: telling SPDY from WebSocket requests, negotiating the
// X-Stream-Protocol-Version as k8s.io/apimachinery's httpstream.Handshake does (the client's
// order wins), and writing raw HTTP responses on a socket that the server handed over.
import type { IncomingMessage } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

export const SPDY_31 = 'SPDY/3.1';
export const HEADER_PROTOCOL_VERSION = 'X-Stream-Protocol-Version';
export const HEADER_ACCEPTED_PROTOCOL_VERSIONS = 'X-Accepted-Stream-Protocol-Versions';

/** Remote-command (exec/attach) protocols over SPDY, best first. */
export const REMOTE_COMMAND_SPDY_PROTOCOLS = ['v4.channel.k8s.io', 'v3.channel.k8s.io', 'v2.channel.k8s.io', 'channel.k8s.io'];
export const PORT_FORWARD_SPDY_PROTOCOLS = ['portforward.k8s.io'];

const headerValues = (req: IncomingMessage, name: string): string[] => {
  const raw = req.headers[name.toLowerCase()];
  const joined = Array.isArray(raw) ? raw.join(',') : (raw ?? '');
  return joined
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
};

const hasToken = (req: IncomingMessage, name: string, token: string): boolean =>
  headerValues(req, name).some((v) => v.toLowerCase().includes(token.toLowerCase()));

export const isUpgradeRequest = (req: IncomingMessage): boolean => hasToken(req, 'connection', 'upgrade');

export const isWebSocketRequest = (req: IncomingMessage): boolean =>
  isUpgradeRequest(req) && (req.headers.upgrade ?? '').toLowerCase() === 'websocket';

export const isSpdyRequest = (req: IncomingMessage): boolean => isUpgradeRequest(req) && hasToken(req, 'upgrade', SPDY_31);

export type Negotiation = { ok: true; protocol: string } | { ok: false; status: number; message: string; headers: Record<string, string> };

/** Picks the first protocol the client lists that the server supports. */
export function negotiateStreamProtocol(req: IncomingMessage, supported: string[]): Negotiation {
  const requested = headerValues(req, HEADER_PROTOCOL_VERSION);
  if (requested.length === 0) {
    return { ok: false, status: 400, message: `unable to upgrade: header ${HEADER_PROTOCOL_VERSION} is missing or empty`, headers: {} };
  }
  const protocol = requested.find((p) => supported.includes(p));
  if (!protocol) {
    return {
      ok: false,
      status: 403,
      message: `unable to upgrade: unable to negotiate protocol: client supports [${requested.join(' ')}], server accepts [${supported.join(' ')}]`,
      headers: { [HEADER_ACCEPTED_PROTOCOL_VERSIONS]: supported.join(', ') },
    };
  }
  return { ok: true, protocol };
}

/** How long a refused client has to take its error response before the socket is destroyed anyway. */
const ERROR_DRAIN_MS = 5_000;

/**
 * Writes a complete plain-text HTTP response on a raw socket and closes it: destroyed once the
 * response is out (or after ERROR_DRAIN_MS). An upgrade socket has no HTTP timeout any more, and
 * end() alone kept its descriptor for as long as the client kept its end open: 20,000 refused
 * upgrades, no token needed, took every descriptor berthd had.
 */
export function writeHttpError(socket: Duplex, status: number, message: string, headers: Record<string, string> = {}): void {
  if (socket.destroyed) return;
  const body = Buffer.from(message + '\n');
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: text/plain; charset=utf-8',
    'X-Content-Type-Options: nosniff',
    `Content-Length: ${body.length}`,
    'Connection: close',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  const drained = setTimeout(() => socket.destroy(), ERROR_DRAIN_MS);
  drained.unref();
  socket.end(Buffer.concat([Buffer.from(lines.join('\r\n') + '\r\n\r\n'), body]), () => {
    clearTimeout(drained);
    socket.destroy();
  });
}

/** Answers a SPDY upgrade: 101 with the negotiated stream protocol. */
export function writeSpdySwitchingProtocols(socket: Duplex, protocol: string): void {
  socket.write(
    ['HTTP/1.1 101 Switching Protocols', 'Connection: Upgrade', `Upgrade: ${SPDY_31}`, `${HEADER_PROTOCOL_VERSION}: ${protocol}`, '', ''].join('\r\n'),
  );
}
