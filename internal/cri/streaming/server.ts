// The streaming server behind the CRI Exec/Attach/PortForward RPCs, as kubelet's
// pkg/kubelet/cri/streaming: each RPC stores its request under a single-use token and answers a
// URL (http://<addr>:<port>/exec/<token>); the client then opens that URL with an HTTP upgrade,
// SPDY/3.1 (crictl, critest, kubelet-era client-go) or WebSocket (newer clients).
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import type { AttachRequest } from '../../api/gen/runtime/v1/AttachRequest';
import type { ExecRequest } from '../../api/gen/runtime/v1/ExecRequest';
import type { PortForwardRequest } from '../../api/gen/runtime/v1/PortForwardRequest';
import { failedPrecondition, invalidArgument, messageOf } from '../../errdefs/errors';
import type { Logger } from '../../log/logger';
import {
  PORT_FORWARD_SPDY_PROTOCOLS,
  REMOTE_COMMAND_SPDY_PROTOCOLS,
  isSpdyRequest,
  isWebSocketRequest,
  negotiateStreamProtocol,
  writeHttpError,
  writeSpdySwitchingProtocols,
} from './handshake';
import { servePortForwardSpdy } from './portforward/spdy';
import { PORT_FORWARD_WEBSOCKET_PROTOCOLS, servePortForwardWebSocket } from './portforward/websocket';
import { serveAttach, serveExec } from './remotecommand/serve';
import type { RemoteCommandOptions, RemoteCommandSession } from './remotecommand/session';
import { openSpdyRemoteCommand } from './remotecommand/spdy';
import { REMOTE_COMMAND_WEBSOCKET_PROTOCOLS, openWebSocketRemoteCommand } from './remotecommand/websocket';
import { RequestCache } from './request_cache';
import type { StreamingRuntime } from './runtime';
import { SpdySession } from './spdy/session';

export interface StreamingServerOptions {
  /** Listen address; default 127.0.0.1. */
  address?: string;
  /** 0 picks a free port. */
  port?: number;
  /** PEM cert and key: serve https/wss. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** How long a URL stays valid (kubelet: 1 minute). */
  tokenTtlMs?: number;
  /** How long the client has to open its streams after upgrading (kubelet: 30s). */
  streamCreationTimeoutMs?: number;
  /** An upgraded connection with no traffic for this long is closed (kubelet: 4h). */
  streamIdleTimeoutMs?: number;
  /** Overrides scheme://host:port of the URLs handed out (e.g. when listening on 0.0.0.0). */
  baseUrl?: string;
  runtime: StreamingRuntime;
  logger: Logger;
  /** Milliseconds clock for token expiry; tests inject one. */
  now?: () => number;
}

type PendingRequest =
  | { kind: 'exec'; req: Required<ExecRequest> }
  | { kind: 'attach'; req: Required<AttachRequest> }
  | { kind: 'portforward'; req: Required<PortForwardRequest> };

/** Something open we must cut when the server stops. */
interface LiveSession {
  destroy(): void;
}

/** The largest WebSocket message a client may send; a bigger one closes the connection (1009). */
export const WEBSOCKET_MAX_PAYLOAD = 1024 * 1024;

const ROUTE = /^\/(exec|attach|portforward)\/([A-Za-z0-9_-]+)\/?$/;

/** http.NotFound's body, without its newline (reply adds it). */
const NOT_FOUND_TEXT = '404 page not found';

export class StreamingServer {
  private readonly cache: RequestCache<PendingRequest>;
  /** The subprotocol upgradeWebSocket chose for a request, for ws's handshake to announce. */
  private readonly chosenProtocol = new WeakMap<IncomingMessage, string>();
  /** Made on the first WebSocket upgrade: ws stays unloaded in a daemon nobody streams from. */
  private wss: WebSocketServer | undefined;
  private readonly live = new Set<LiveSession>();
  private readonly runtime: StreamingRuntime;
  private readonly logger: Logger;
  private readonly streamCreationTimeoutMs: number;
  private readonly streamIdleTimeoutMs: number;
  private server: Server | undefined;
  /** A start begun by whenListening() and not yet ended. */
  private starting: Promise<void> | undefined;
  private base = '';

  constructor(private readonly opts: StreamingServerOptions) {
    this.runtime = opts.runtime;
    this.logger = opts.logger.with({ component: 'streaming' });
    this.streamCreationTimeoutMs = opts.streamCreationTimeoutMs ?? 30_000;
    this.streamIdleTimeoutMs = opts.streamIdleTimeoutMs ?? 4 * 60 * 60 * 1000;
    this.cache = new RequestCache({ ttlMs: opts.tokenTtlMs ?? 60_000, now: opts.now });
  }

  private webSocketServer(): WebSocketServer {
    if (!this.wss) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { WebSocketServer: Server } = require('ws') as typeof import('ws');
      this.wss = new Server({
        noServer: true,
        // ws's default is 100 MiB per message, buffered whole before we see it; clients send
        // stdin and port-forward data in chunks of at most 32 KiB.
        maxPayload: WEBSOCKET_MAX_PAYLOAD,
        handleProtocols: (_offered, req) => this.chosenProtocol.get(req) || false,
      });
    }
    return this.wss;
  }

  /** Starts listening; returns the bound "host:port". */
  async start(): Promise<string> {
    if (this.server) throw failedPrecondition('streaming server already started');
    const server = this.opts.tls ? createHttpsServer({ cert: this.opts.tls.cert, key: this.opts.tls.key }) : createHttpServer();
    server.on('request', (req: IncomingMessage, res: ServerResponse) => this.onRequest(req, res));
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.onUpgrade(req, socket as Socket, head));
    const host = this.opts.address ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.opts.port ?? 0, host, () => {
        server.removeListener('error', reject);
        resolve();
      });
    });
    this.server = server;
    const addr = server.address() as AddressInfo;
    const hostPart = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
    this.base = this.opts.baseUrl ?? `${this.opts.tls ? 'https' : 'http'}://${hostPart}:${addr.port}`;
    this.logger.info('streaming server listening', { url: this.base });
    return `${hostPart}:${addr.port}`;
  }

  /**
   * Starts listening unless it already does: for a server started on first use. Concurrent callers
   * share one start; after a failed one the next caller tries again.
   */
  whenListening(): Promise<void> {
    if (this.server) return Promise.resolve();
    this.starting ??= this.start().then(
      () => void (this.starting = undefined),
      (err: unknown) => {
        this.starting = undefined;
        throw err;
      },
    );
    return this.starting;
  }

  /** Stops listening and cuts every open session (their runtimes see the abort signal). */
  async stop(): Promise<void> {
    await this.starting?.catch(() => undefined);
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const s of this.live) s.destroy();
    this.live.clear();
    server.closeAllConnections();
    this.wss?.close();
    await closed;
  }

  getExec(req: ExecRequest): string {
    const r: Required<ExecRequest> = {
      container_id: req.container_id ?? '',
      cmd: req.cmd ?? [],
      tty: req.tty ?? false,
      stdin: req.stdin ?? false,
      stdout: req.stdout ?? false,
      stderr: req.stderr ?? false,
    };
    if (r.container_id === '') throw invalidArgument('exec: container_id is required');
    if (r.cmd.length === 0) throw invalidArgument(`exec in container ${r.container_id}: cmd is required`);
    validateStreams(`exec in container ${r.container_id}`, r);
    return this.url('exec', { kind: 'exec', req: r });
  }

  getAttach(req: AttachRequest): string {
    const r: Required<AttachRequest> = {
      container_id: req.container_id ?? '',
      tty: req.tty ?? false,
      stdin: req.stdin ?? false,
      stdout: req.stdout ?? false,
      stderr: req.stderr ?? false,
    };
    if (r.container_id === '') throw invalidArgument('attach: container_id is required');
    validateStreams(`attach to container ${r.container_id}`, r);
    return this.url('attach', { kind: 'attach', req: r });
  }

  getPortForward(req: PortForwardRequest): string {
    const r: Required<PortForwardRequest> = { pod_sandbox_id: req.pod_sandbox_id ?? '', port: req.port ?? [] };
    if (r.pod_sandbox_id === '') throw invalidArgument('port-forward: pod_sandbox_id is required');
    const bad = r.port.find((p) => !Number.isInteger(p) || p < 1 || p > 65535);
    if (bad !== undefined) throw invalidArgument(`port-forward to pod ${r.pod_sandbox_id}: port ${bad} is not in 1-65535`);
    return this.url('portforward', { kind: 'portforward', req: r });
  }

  private url(path: string, pending: PendingRequest): string {
    if (!this.server) throw failedPrecondition('streaming server is not running');
    return `${this.base}/${path}/${this.cache.insert(pending)}`;
  }

  /** Resolves the route and consumes its token; writes the 404 itself when there is none. */
  private consume(req: IncomingMessage, reply: (status: number, message: string) => void): PendingRequest | undefined {
    const path = new URL(req.url ?? '/', 'http://streaming').pathname;
    const m = ROUTE.exec(path);
    // Kubelet's server (containerd's) answers every miss with http.NotFound, whose body clients
    // print ("unable to upgrade connection: 404 page not found"); why is berth's log's business.
    if (!m) {
      this.logger.debug('streaming request for an unknown path', { path });
      reply(404, NOT_FOUND_TEXT);
      return undefined;
    }
    const pending = this.cache.consume(m[2]);
    if (!pending || pending.kind !== m[1]) {
      this.logger.debug('streaming token not found: unknown, already used or expired', { route: m[1] });
      reply(404, NOT_FOUND_TEXT);
      return undefined;
    }
    return pending;
  }

  /** A plain (non-upgrade) request: only errors are possible. */
  private onRequest(req: IncomingMessage, res: ServerResponse): void {
    const reply = (status: number, message: string) => {
      res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
      res.end(message + '\n');
    };
    if (!this.consume(req, reply)) return;
    reply(400, 'unable to upgrade: missing upgrade headers in request (SPDY/3.1 or websocket expected)');
  }

  private onUpgrade(req: IncomingMessage, socket: Socket, head: Buffer): void {
    socket.on('error', (err) => this.logger.debug('streaming socket error', { error: err.message }));
    // Node's HTTP timeouts end with the upgrade: from here on the socket is ours to time out.
    socket.setTimeout(this.streamIdleTimeoutMs, () => socket.destroy());
    const pending = this.consume(req, (status, message) => writeHttpError(socket, status, message));
    if (!pending) return;
    if (isWebSocketRequest(req)) this.upgradeWebSocket(req, socket, head, pending);
    else if (isSpdyRequest(req)) this.upgradeSpdy(req, socket, head, pending);
    else writeHttpError(socket, 400, `unable to upgrade: unsupported Upgrade "${req.headers.upgrade ?? ''}" (SPDY/3.1 or websocket expected)`);
  }

  private upgradeSpdy(req: IncomingMessage, socket: Socket, head: Buffer, pending: PendingRequest): void {
    const supported = pending.kind === 'portforward' ? PORT_FORWARD_SPDY_PROTOCOLS : REMOTE_COMMAND_SPDY_PROTOCOLS;
    const negotiated = negotiateStreamProtocol(req, supported);
    if (!negotiated.ok) {
      writeHttpError(socket, negotiated.status, negotiated.message, negotiated.headers);
      return;
    }
    writeSpdySwitchingProtocols(socket, negotiated.protocol);
    this.logger.debug('streaming session upgraded', { kind: pending.kind, transport: 'spdy', protocol: negotiated.protocol });
    const session = new SpdySession(socket, head, this.logger);
    this.track(session, session);
    if (pending.kind === 'portforward') {
      const { pod_sandbox_id } = pending.req;
      void servePortForwardSpdy(session, pod_sandbox_id, this.runtime, this.streamCreationTimeoutMs, this.logger.with({ podSandboxId: pod_sandbox_id }));
      return;
    }
    const opts = remoteCommandOptions(pending.req);
    const opened = openSpdyRemoteCommand(session, negotiated.protocol, opts, this.streamCreationTimeoutMs);
    void this.runRemoteCommand(pending, opts, opened, () => session.destroy());
  }

  private upgradeWebSocket(req: IncomingMessage, socket: Socket, head: Buffer, pending: PendingRequest): void {
    const offered = (req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p.length > 0);
    const table = pending.kind === 'portforward' ? PORT_FORWARD_WEBSOCKET_PROTOCOLS : REMOTE_COMMAND_WEBSOCKET_PROTOCOLS;
    // As x/net/websocket's handshake in kubelet: the client's first supported protocol wins.
    const protocol = offered.length === 0 ? '' : offered.find((p) => p in table);
    if (protocol === undefined) {
      writeHttpError(socket, 403, `requested protocol(s) are not supported: [${offered.join(' ')}]; supports [${Object.keys(table).filter(Boolean).join(' ')}]`);
      return;
    }
    this.chosenProtocol.set(req, protocol);
    this.webSocketServer().handleUpgrade(req, socket, head, (ws: WebSocket) => {
      this.logger.debug('streaming session upgraded', { kind: pending.kind, transport: 'websocket', protocol });
      this.track({ destroy: () => ws.terminate() }, ws);
      if (pending.kind === 'portforward') {
        const { pod_sandbox_id, port } = pending.req;
        const ports = port.length > 0 ? port : portsFromQuery(req);
        void servePortForwardWebSocket(ws, protocol, pod_sandbox_id, ports, this.runtime, this.logger.with({ podSandboxId: pod_sandbox_id }));
        return;
      }
      const opts = remoteCommandOptions(pending.req);
      void this.runRemoteCommand(pending, opts, Promise.resolve(openWebSocketRemoteCommand(ws, protocol, opts)), () => ws.terminate());
    });
  }

  private async runRemoteCommand(
    pending: PendingRequest,
    opts: RemoteCommandOptions,
    opened: Promise<RemoteCommandSession>,
    abandon: () => void,
  ): Promise<void> {
    let session: RemoteCommandSession;
    try {
      session = await opened;
    } catch (err) {
      this.logger.warn('streaming session not established', { kind: pending.kind, error: messageOf(err) });
      abandon();
      return;
    }
    try {
      if (pending.kind === 'exec') {
        const { container_id, cmd } = pending.req;
        await serveExec(this.runtime, { containerId: container_id, cmd }, opts, session, this.logger.with({ containerId: container_id }));
      } else if (pending.kind === 'attach') {
        await serveAttach(this.runtime, pending.req.container_id, opts, session, this.logger.with({ containerId: pending.req.container_id }));
      }
    } catch (err) {
      this.logger.error('streaming session failed', { kind: pending.kind, error: messageOf(err) });
      session.destroy();
    }
  }

  private track(live: LiveSession, emitter: { once(event: 'close', listener: () => void): unknown }): void {
    this.live.add(live);
    emitter.once('close', () => this.live.delete(live));
  }
}

/** Kubelet's rule: at least one stream; tty and stderr together are refused. */
function validateStreams(what: string, r: { tty: boolean; stdin: boolean; stdout: boolean; stderr: boolean }): void {
  if (r.tty && r.stderr) throw invalidArgument(`${what}: tty and stderr cannot both be true`);
  if (!r.stdin && !r.stdout && !r.stderr) throw invalidArgument(`${what}: one of stdin, stdout, or stderr must be set`);
}

const remoteCommandOptions = (r: { tty: boolean; stdin: boolean; stdout: boolean; stderr: boolean }): RemoteCommandOptions => ({
  stdin: r.stdin,
  stdout: r.stdout,
  stderr: r.stderr && !r.tty,
  tty: r.tty,
});

/** Ports from `?port=80&port=443` or `?port=80,443`, when the CRI request listed none. */
function portsFromQuery(req: IncomingMessage): number[] {
  const params = new URL(req.url ?? '/', 'http://streaming').searchParams.getAll('port');
  return params
    .flatMap((v) => v.split(','))
    .map((v) => Number(v))
    .filter((p) => Number.isInteger(p) && p >= 1 && p <= 65535);
}
