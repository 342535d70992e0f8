// A loopback HTTP proxy in front of the test registry: records requests (to count downloads),
// can corrupt chosen blobs on their way through, and can demand auth — Bearer tokens from a token
// endpoint it serves itself (checking basic credentials there), or Basic auth directly.
import http from 'node:http';

export interface ProxyOptions {
  /** e.g. "http://127.0.0.1:5000". */
  target: string;
  /** Flip one byte of responses to GETs whose path this matches. */
  tamper?: (path: string) => boolean;
  /** Holds back requests whose path this matches until the promise it returns settles. */
  hold?: (path: string) => Promise<void> | undefined;
  /** Sends the headers and half the body of GETs whose path this matches, then nothing more. */
  stall?: (path: string) => boolean;
  /** Sends the body of GETs whose path this matches a byte every 500 ms (no read timeout ends it). */
  drip?: (path: string) => boolean;
  /** Answers requests whose path this matches with this status (e.g. 429) instead of passing them on. */
  refuse?: (path: string) => number | undefined;
  bearer?: { username: string; password: string; token: string };
  basic?: { username: string; password: string };
}

export interface RegistryProxy {
  url: string;
  host: string;
  requests: { method: string; path: string; status: number }[];
  /** The stalled or dripping responses so far; `closed` resolves when the client closed the connection. */
  stalled: { path: string; closed: Promise<void> }[];
  close(): Promise<void>;
}

const basicOf = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

export async function startProxy(opts: ProxyOptions): Promise<RegistryProxy> {
  const requests: RegistryProxy['requests'] = [];
  const stalled: RegistryProxy['stalled'] = [];
  let self = '';
  const released = new WeakSet<http.IncomingMessage>();
  const server = http.createServer((req, res) => {
    const held = released.has(req) ? undefined : opts.hold?.(req.url ?? '/');
    if (held) {
      void held.then(() => {
        released.add(req);
        server.emit('request', req, res);
      });
      return;
    }
    const path = req.url ?? '/';
    const answer = (status: number, headers: http.OutgoingHttpHeaders, body: string) => {
      requests.push({ method: req.method ?? '', path, status });
      res.writeHead(status, headers).end(body);
    };
    const refused = opts.refuse?.(path);
    if (refused !== undefined) {
      return answer(refused, { 'content-type': 'application/json' }, JSON.stringify({ errors: [{ code: 'TOOMANYREQUESTS', message: 'slow down' }] }));
    }
    if (opts.bearer && path.startsWith('/token')) {
      if (req.headers.authorization !== basicOf(opts.bearer.username, opts.bearer.password)) {
        return answer(401, { 'content-type': 'application/json' }, JSON.stringify({ details: 'bad credentials' }));
      }
      return answer(200, { 'content-type': 'application/json' }, JSON.stringify({ access_token: opts.bearer.token }));
    }
    if (opts.bearer && req.headers.authorization !== `Bearer ${opts.bearer.token}`) {
      const scope = /^\/v2\/(.+)\/(?:manifests|blobs)\//.exec(path)?.[1];
      return answer(
        401,
        {
          'content-type': 'application/json',
          'www-authenticate': `Bearer realm="${self}/token",service="berth-test"${scope ? `,scope="repository:${scope}:pull"` : ''}`,
        },
        JSON.stringify({ errors: [{ code: 'UNAUTHORIZED', message: 'authentication required' }] }),
      );
    }
    if (opts.basic && req.headers.authorization !== basicOf(opts.basic.username, opts.basic.password)) {
      return answer(
        401,
        { 'content-type': 'application/json', 'www-authenticate': 'Basic realm="berth-test"' },
        JSON.stringify({ errors: [{ code: 'UNAUTHORIZED', message: 'wrong user or password' }] }),
      );
    }
    const headers = { ...req.headers };
    delete headers.authorization;
    delete headers.host;
    const upstream = http.request(new URL(path, opts.target), { method: req.method, headers }, (up) => {
      requests.push({ method: req.method ?? '', path, status: up.statusCode ?? 0 });
      /** Matched GETs answered 200 are held whole, then answered by `answer`. */
      const whole = (matches: ((p: string) => boolean) | undefined, answer: (body: Buffer) => void): boolean => {
        if (!matches || req.method !== 'GET' || !matches(path) || up.statusCode !== 200) return false;
        const parts: Buffer[] = [];
        up.on('data', (c: Buffer) => parts.push(c));
        up.on('end', () => answer(Buffer.concat(parts)));
        return true;
      };
      const watchClose = () => stalled.push({ path, closed: new Promise((resolve) => res.once('close', () => resolve())) });
      if (
        whole(opts.stall, (body) => {
          res.writeHead(200, up.headers);
          res.write(body.subarray(0, body.length >> 1));
          watchClose();
        })
      ) {
        return;
      }
      if (
        whole(opts.drip, (body) => {
          res.writeHead(200, up.headers);
          let sent = 0;
          const timer = setInterval(() => {
            if (sent >= body.length) return void (clearInterval(timer), res.end());
            res.write(body.subarray(sent, ++sent));
          }, 500);
          watchClose();
          res.once('close', () => clearInterval(timer));
        })
      ) {
        return;
      }
      if (
        whole(opts.tamper, (body) => {
          if (body.length > 0) body[body.length >> 1] ^= 0xff;
          res.writeHead(200, up.headers).end(body);
        })
      ) {
        return;
      }
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  self = `http://127.0.0.1:${port}`;
  return {
    url: self,
    host: `127.0.0.1:${port}`,
    requests,
    stalled,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
