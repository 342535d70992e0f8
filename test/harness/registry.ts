// A real registry for tests: Debian's docker-registry (the CNCF distribution registry) on
// 127.0.0.1:<free port> with its own temp storage, stopped by PID. Images are pushed with our own
// small distribution-API client (monolithic blob uploads, manifest PUT) from OCI layout archives.
// startRegistryFront puts an auth-demanding, redirecting, header-recording front on another
// loopback "host" (127.0.0.x), optionally speaking https and http on one port.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duplex } from 'node:stream';
import { extract } from 'tar-stream';

export const REGISTRY_BINARY = '/usr/bin/docker-registry';

export interface RunningRegistry {
  /** "http://127.0.0.1:<port>". */
  url: string;
  /** "127.0.0.1:<port>", the domain part of references to it. */
  host: string;
  port: number;
  pid: number;
  /** Filesystem storage root (blobs live under docker/registry/v2/blobs/sha256/). */
  storageDir: string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

async function waitReady(url: string, child: ChildProcess, logFile: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) {
      throw new Error(`docker-registry exited with ${child.exitCode}: ${readFileSync(logFile, 'utf8').slice(-2000)}`);
    }
    const status = await new Promise<number>((resolve) => {
      http
        .get(`${url}/v2/`, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', () => resolve(0));
    });
    if (status === 200) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`docker-registry at ${url} did not become ready: ${readFileSync(logFile, 'utf8').slice(-2000)}`);
}

/** Starts a registry with no auth; `stop()` kills it (by its PID) and removes its storage. */
export async function startRegistry(): Promise<RunningRegistry> {
  const dir = mkdtempSync(join(tmpdir(), 'berth-registry-'));
  const storageDir = join(dir, 'storage');
  const port = await freePort();
  const configFile = join(dir, 'config.yml');
  writeFileSync(
    configFile,
    [
      'version: 0.1',
      'log:',
      '  level: error',
      '  accesslog:',
      '    disabled: true',
      'storage:',
      '  filesystem:',
      `    rootdirectory: ${storageDir}`,
      '  delete:',
      '    enabled: true',
      'http:',
      `  addr: 127.0.0.1:${port}`,
      '',
    ].join('\n'),
  );
  const logFile = join(dir, 'registry.log');
  const logFd = openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(REGISTRY_BINARY, ['serve', configFile], { stdio: ['ignore', logFd, logFd] });
  } finally {
    closeSync(logFd);
  }
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      if (!(await waitExit(child, 5000))) {
        child.kill('SIGKILL');
        await waitExit(child, 5000);
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitReady(url, child, logFile);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, host: `127.0.0.1:${port}`, port, pid: child.pid as number, storageDir, stop };
}

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function send(url: string, method: string, headers: Record<string, string> = {}, body?: Buffer): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const sha256 = (data: Buffer) => `sha256:${createHash('sha256').update(data).digest('hex')}`;

/** Uploads a blob (monolithic POST + PUT) unless the registry has it; returns its digest. */
export async function pushBlob(registryUrl: string, repo: string, data: Buffer): Promise<string> {
  const digest = sha256(data);
  const head = await send(`${registryUrl}/v2/${repo}/blobs/${digest}`, 'HEAD');
  if (head.status === 200) return digest;
  const start = await send(`${registryUrl}/v2/${repo}/blobs/uploads/`, 'POST', { 'content-length': '0' });
  if (start.status !== 202 || !start.headers.location) {
    throw new Error(`push blob ${digest} to ${repo}: upload start answered ${start.status} ${start.body.toString()}`);
  }
  const location = new URL(start.headers.location, registryUrl);
  location.searchParams.set('digest', digest);
  const put = await send(
    location.toString(),
    'PUT',
    { 'content-type': 'application/octet-stream', 'content-length': String(data.length) },
    data,
  );
  if (put.status !== 201) throw new Error(`push blob ${digest} to ${repo}: PUT answered ${put.status} ${put.body.toString()}`);
  return digest;
}

/** PUTs a manifest (or index) under a tag or digest; returns its digest. */
export async function pushManifest(
  registryUrl: string,
  repo: string,
  reference: string,
  mediaType: string,
  data: Buffer,
): Promise<string> {
  const res = await send(
    `${registryUrl}/v2/${repo}/manifests/${reference}`,
    'PUT',
    { 'content-type': mediaType, 'content-length': String(data.length) },
    data,
  );
  if (res.status !== 201) throw new Error(`push manifest ${repo}:${reference}: ${res.status} ${res.body.toString()}`);
  return sha256(data);
}

/** Reads every blob and index.json of an OCI layout archive into memory (test images are small). */
export async function readOciArchive(path: string): Promise<{ index: Buffer; blobs: Map<string, Buffer> }> {
  const blobs = new Map<string, Buffer>();
  let index: Buffer | undefined;
  const tar = extract();
  createReadStream(path).pipe(tar);
  for await (const entry of tar) {
    const parts: Buffer[] = [];
    for await (const c of entry) parts.push(c as Buffer);
    const name = entry.header.name.replace(/^\.\//, '');
    const m = /^blobs\/sha256\/([a-f0-9]{64})$/.exec(name);
    if (m) blobs.set(`sha256:${m[1]}`, Buffer.concat(parts));
    else if (name === 'index.json') index = Buffer.concat(parts);
  }
  if (!index) throw new Error(`${path}: no index.json`);
  return { index, blobs };
}

interface Desc {
  mediaType: string;
  digest: string;
  size: number;
}

/**
 * Pushes the first image of an OCI layout archive as `repoTag` ("repo:tag", relative to the
 * registry). Returns the descriptor of the manifest (or index) pushed under the tag.
 */
export async function pushImage(registryUrl: string, ociArchivePath: string, repoTag: string): Promise<Desc> {
  const colon = repoTag.lastIndexOf(':');
  if (colon <= repoTag.lastIndexOf('/')) throw new Error(`pushImage: ${repoTag} has no tag`);
  const repo = repoTag.slice(0, colon);
  const tag = repoTag.slice(colon + 1);
  const { index, blobs } = await readOciArchive(ociArchivePath);
  const blob = (digest: string) => {
    const data = blobs.get(digest);
    if (!data) throw new Error(`${ociArchivePath}: blob ${digest} missing`);
    return data;
  };
  const pushTree = async (desc: Desc, reference: string): Promise<void> => {
    const data = blob(desc.digest);
    const doc = JSON.parse(data.toString('utf8')) as { manifests?: Desc[]; config?: Desc; layers?: Desc[] };
    if (doc.manifests) {
      for (const child of doc.manifests) await pushTree(child, child.digest);
    } else {
      for (const child of [doc.config as Desc, ...(doc.layers ?? [])]) await pushBlob(registryUrl, repo, blob(child.digest));
    }
    await pushManifest(registryUrl, repo, reference, desc.mediaType, data);
  };
  const top = (JSON.parse(index.toString('utf8')) as { manifests: Desc[] }).manifests[0];
  await pushTree(top, tag);
  return { mediaType: top.mediaType, digest: top.digest, size: top.size };
}

/** A self-signed certificate for `ip`, its own CA, written under `dir` (for hosts.toml `ca`). */
export function selfSignedCert(dir: string, ip = '127.0.0.1'): { certFile: string; cert: string; key: string } {
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', `/CN=${ip}`, '-addext', `subjectAltName=IP:${ip}`, '-keyout', keyFile, '-out', certFile,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return { certFile, cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8') };
}

/** One request a front received, as it arrived. */
export interface SeenRequest {
  scheme: 'http' | 'https';
  method: string;
  /** Path and query. */
  path: string;
  authorization?: string;
}

export interface FrontOptions {
  /** The registry /v2/ requests are forwarded to, e.g. "http://127.0.0.1:5000". */
  upstream: string;
  /** Loopback address to listen on: 127.0.0.2 etc. are other hosts. Default 127.0.0.1. */
  address?: string;
  /** Serve https (and plain http on the same port, told apart by the first byte). */
  tls?: { cert: string; key: string };
  /** Basic credentials demanded of /v2/ requests. */
  basic?: { username: string; password: string };
  /**
   * Bearer tokens demanded of /v2/ requests, served at <realm>: for the basic credentials given,
   * or to anyone when none are. `realm` defaults to this front's own /token over the scheme asked.
   */
  bearer?: { token: string; username?: string; password?: string; realm?: (front: { host: string }) => string };
  /** Which /v2/ requests must be authorized (default: all). */
  guard?: (req: SeenRequest) => boolean;
  /** Where to redirect a request (302) instead of answering it; undefined = answer. */
  redirect?: (req: SeenRequest, front: { host: string }) => string | undefined;
}

export interface RegistryFront {
  /** "http(s)://<address>:<port>". */
  url: string;
  /** "<address>:<port>". */
  host: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

const basicCredentials = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

/**
 * `socket` as a plain stream starting with `first` again. TLS reads a net.Socket's handle
 * directly, past anything unshifted back, so it gets this stream instead.
 */
function replayed(socket: Socket, first: Buffer): Duplex {
  const stream = new Duplex({
    read: () => void socket.resume(),
    write: (chunk: Buffer, _enc, done) => void socket.write(chunk, done),
    final: (done) => void socket.end(done),
    destroy: (err, done) => {
      socket.destroy();
      done(err);
    },
  });
  stream.push(first);
  socket.on('data', (chunk: Buffer) => {
    if (!stream.push(chunk)) socket.pause();
  });
  socket.on('end', () => stream.push(null));
  socket.on('error', (err) => stream.destroy(err));
  return stream;
}

/** Starts a recording front for `opts.upstream`; `close()` stops it and its connections. */
export async function startRegistryFront(opts: FrontOptions): Promise<RegistryFront> {
  const address = opts.address ?? '127.0.0.1';
  const seen: SeenRequest[] = [];
  const self = { host: '' };
  const handle = (scheme: 'http' | 'https') => (req: http.IncomingMessage, res: http.ServerResponse) => {
    const rec: SeenRequest = { scheme, method: req.method ?? '', path: req.url ?? '/' };
    if (req.headers.authorization !== undefined) rec.authorization = req.headers.authorization;
    seen.push(rec);
    const json = (status: number, headers: http.OutgoingHttpHeaders, doc: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(doc));
    const unauthorized = (challenge: string, message: string) =>
      json(401, { 'www-authenticate': challenge }, { errors: [{ code: 'UNAUTHORIZED', message }] });
    const { bearer, basic } = opts;
    if (bearer && rec.path.startsWith('/token')) {
      if (bearer.username !== undefined && rec.authorization !== basicCredentials(bearer.username, bearer.password ?? '')) {
        return json(401, {}, { details: 'bad credentials' });
      }
      return json(200, {}, { token: bearer.token });
    }
    const location = opts.redirect?.(rec, self);
    if (location) return res.writeHead(302, { location }).end();
    if (rec.path.startsWith('/v2/') && (opts.guard?.(rec) ?? true)) {
      if (bearer && rec.authorization !== `Bearer ${bearer.token}`) {
        const realm = bearer.realm?.(self) ?? `${scheme}://${self.host}/token`;
        return unauthorized(`Bearer realm="${realm}",service="berth-front"`, 'token required');
      }
      if (basic && rec.authorization !== basicCredentials(basic.username, basic.password)) {
        return unauthorized('Basic realm="berth-front"', 'wrong user or password');
      }
    }
    const headers = { ...req.headers };
    delete headers.authorization;
    delete headers.host;
    const upstream = http.request(new URL(rec.path, opts.upstream), { method: req.method, headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  };
  const plain = http.createServer(handle('http'));
  const secure = opts.tls ? https.createServer({ cert: opts.tls.cert, key: opts.tls.key }, handle('https')) : undefined;
  const sockets = new Set<Socket>();
  const listener = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // A TLS ClientHello starts with 0x16; anything else is plain HTTP.
    socket.once('data', (first: Buffer) => {
      socket.pause();
      if (secure && first[0] === 0x16) {
        secure.emit('connection', replayed(socket, first));
      } else {
        socket.unshift(first);
        plain.emit('connection', socket);
        socket.resume();
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(0, address, resolve);
  });
  const addr = listener.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  self.host = `${address}:${port}`;
  return {
    url: `${opts.tls ? 'https' : 'http'}://${self.host}`,
    host: self.host,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        listener.close(() => resolve());
      }),
  };
}
