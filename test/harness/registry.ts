// A real registry for tests: Debian's docker-registry (the CNCF distribution registry) on
// 127.0.0.1:<free port> with its own temp storage, stopped by PID. Images are pushed with our own
// small distribution-API client (monolithic blob uploads, manifest PUT) from OCI layout archives.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, mkdtempSync, openSync, closeSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
