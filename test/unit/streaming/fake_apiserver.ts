// Just enough of a Kubernetes API server for kubectl exec/port-forward to reach our streaming
// server: discovery, one Running pod "p1", and the pods/exec and pods/portforward upgrades, which
// it turns into CRI requests (getExec/getPortForward) and proxies to the returned URL, as the API
// server and kubelet do between them. Loopback only.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { StreamingServer } from '../../../internal/cri/streaming/server';

export interface FakeApiServer {
  url: string;
  /** "<Upgrade header> <protocols offered>" of each upgrade proxied to the streaming server. */
  proxied: string[];
  close(): Promise<void>;
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
};

function discovery(path: string, base: string): unknown {
  switch (path) {
    case '/version':
      return { major: '1', minor: '32', gitVersion: 'v1.32.0' };
    case '/api':
      return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: base }] };
    case '/apis':
      return { kind: 'APIGroupList', apiVersion: 'v1', groups: [] };
    case '/api/v1':
      return {
        kind: 'APIResourceList',
        groupVersion: 'v1',
        resources: [
          { name: 'pods', singularName: 'pod', namespaced: true, kind: 'Pod', verbs: ['get', 'list'], shortNames: ['po'] },
          { name: 'pods/exec', singularName: '', namespaced: true, kind: 'PodExecOptions', verbs: ['create', 'get'] },
          { name: 'pods/portforward', singularName: '', namespaced: true, kind: 'PodPortForwardOptions', verbs: ['create', 'get'] },
        ],
      };
    case '/api/v1/namespaces/default/pods/p1':
      return { kind: 'Pod', apiVersion: 'v1', metadata: { name: 'p1', namespace: 'default' }, spec: { containers: [{ name: 'c' }] }, status: { phase: 'Running' } };
    default:
      return undefined;
  }
}

/** Relays an upgrade request, headers untouched, to `target` and splices the two sockets. */
function proxyUpgrade(req: IncomingMessage, client: Socket, head: Buffer, target: URL): void {
  const upstream = connect(Number(target.port), target.hostname, () => {
    const lines = [`${req.method} ${target.pathname} HTTP/1.1`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    upstream.write(lines.join('\r\n') + '\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  upstream.on('error', () => client.destroy());
  client.on('error', () => upstream.destroy());
  client.on('close', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
}

export async function startFakeApiServer(streaming: StreamingServer): Promise<FakeApiServer> {
  let base = '';
  const proxied: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const body = discovery(new URL(req.url ?? '/', 'http://x').pathname, base);
    if (body === undefined) json(res, 404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404, message: 'not found' });
    else json(res, 200, body);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const q = url.searchParams;
    const flag = (name: string) => q.get(name) === 'true' || q.get(name) === '1';
    // kubectl's port-forward first tries WebSocket tunneling (SPDY inside WebSocket), which the API
    // server translates; kubelet's CRI server never sees it. Refuse it so kubectl falls back to SPDY.
    const tunneling = (req.headers['sec-websocket-protocol'] ?? '').startsWith('SPDY/3.1+');
    let target: string | undefined;
    if (url.pathname.endsWith('/pods/p1/exec')) {
      target = streaming.getExec({ container_id: 'c', cmd: q.getAll('command'), stdin: flag('stdin'), stdout: flag('stdout'), stderr: flag('stderr'), tty: flag('tty') });
    } else if (url.pathname.endsWith('/pods/p1/portforward') && !tunneling) {
      target = streaming.getPortForward({ pod_sandbox_id: 'p1', port: [] });
    }
    if (!target) {
      socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    proxied.push(`${req.headers.upgrade ?? ''} ${req.headers['sec-websocket-protocol'] ?? req.headers['x-stream-protocol-version'] ?? ''}`);
    proxyUpgrade(req, socket, head, new URL(target));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address() as AddressInfo;
  base = `127.0.0.1:${addr.port}`;
  return {
    url: `http://${base}`,
    proxied,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
