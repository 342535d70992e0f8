// The HTTP transport for registries: node:http / node:https, redirects followed, network failures
// mapped to Unavailable naming the host. Authorization is chosen per hop for that hop's origin
// (scheme://host:port), as containerd re-authorizes each redirect: blob storage a registry
// redirects to never sees the registry's credentials, and neither does an https→http downgrade
// (followed, as Go's client does, but with nothing secret on it).
import { readFileSync } from 'node:fs';
import http, { type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import { rootCertificates } from 'node:tls';
import { BerthError, canceled, invalidArgument, unavailable } from '../../errdefs/errors';
import { extraCaCerts } from './extra_ca';
import type { RegistryHost } from './hosts';

/** As Go's http.Client, which containerd's resolver uses: a registry may chain up to 10 redirects. */
const MAX_REDIRECTS = 10;
const IDLE_TIMEOUT_MS = 60_000;

export interface HttpResponse {
  status: number;
  headers: IncomingMessage['headers'];
  body: IncomingMessage;
  /** The URL that answered (after redirects). */
  url: URL;
  /** A redirect led away from the first URL's origin (even if a later one came back). */
  leftOrigin: boolean;
}

export interface RequestOptions {
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: OutgoingHttpHeaders;
  body?: Buffer;
  /**
   * The Authorization for each hop, asked with the hop's URL. An authorization in `headers` goes
   * only to the first URL's origin.
   */
  authorize?: (url: URL) => string | undefined;
  /** Ends the request (and its body) when it aborts: the pull it serves was given up. */
  signal?: AbortSignal;
}

const withoutAuthorization = (headers: OutgoingHttpHeaders): OutgoingHttpHeaders =>
  Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'authorization'));

const agents = new Map<string, https.Agent>();

/** A TLS agent honouring skip_verify, the host's CA files and the operator's extra CAs; undefined: Node's defaults do. */
function agentFor(host: RegistryHost | undefined): https.Agent | undefined {
  const operator = extraCaCerts(); // the operator's NODE_EXTRA_CA_CERTS (extra_ca.ts)
  const extra = operator?.certs ?? [];
  const skipVerify = host?.skipVerify ?? false;
  const caFiles = host?.caFiles ?? [];
  if (!skipVerify && caFiles.length === 0 && extra.length === 0) return undefined;
  const key = `${host?.host ?? ''}|${skipVerify}|${caFiles.join(',')}|${operator?.file ?? ''}`;
  let agent = agents.get(key);
  if (!agent) {
    const ca = caFiles.length + extra.length > 0 ? [...rootCertificates, ...extra, ...caFiles.map((f) => readFileSync(f, 'utf8'))] : undefined;
    agent = new https.Agent({ keepAlive: true, rejectUnauthorized: !skipVerify, ca });
    agents.set(key, agent);
  }
  return agent;
}

function once(url: URL, opts: RequestOptions, host: RegistryHost | undefined): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const mod = url.protocol === 'http:' ? http : https;
    const req = mod.request(
      url,
      {
        method: opts.method ?? 'GET',
        headers: opts.headers,
        agent: url.protocol === 'https:' ? agentFor(host) : undefined,
        signal: opts.signal,
      },
      resolve,
    );
    req.setTimeout(IDLE_TIMEOUT_MS, () => req.destroy(new Error(`no response for ${IDLE_TIMEOUT_MS / 1000}s`)));
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (opts.signal?.aborted) return reject(canceled(`request to ${url.host} canceled`, err));
      reject(unavailable(`registry ${url.host} unreachable: ${err.code ?? ''} ${err.message}`.replace(/\s+/g, ' '), err));
    });
    req.end(opts.body);
  });
}

/** Sends a request, following redirects. The caller must consume or destroy `body`. */
export async function request(url: URL, opts: RequestOptions = {}, host?: RegistryHost): Promise<HttpResponse> {
  let current = url;
  let leftOrigin = false;
  for (let hop = 0; ; hop++) {
    let headers: OutgoingHttpHeaders = leftOrigin ? withoutAuthorization(opts.headers ?? {}) : { ...opts.headers };
    const authorization = opts.authorize?.(current);
    if (authorization) headers = { ...withoutAuthorization(headers), authorization };
    const res = await once(current, { ...opts, headers }, host);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (![301, 302, 303, 307, 308].includes(status) || !location) {
      return { status, headers: res.headers, body: res, url: current, leftOrigin };
    }
    // Not read: a redirect's body says nothing, and a hostile one need never end (Go's client reads
    // 2 KiB of it before closing).
    res.destroy();
    if (hop >= MAX_REDIRECTS) throw unavailable(`registry ${url.host}: too many redirects`);
    try {
      current = new URL(location, current);
    } catch {
      throw unavailable(`registry ${url.host}: redirect to an invalid location ${JSON.stringify(location.slice(0, 200))}`);
    }
    if (current.protocol !== 'http:' && current.protocol !== 'https:') {
      throw unavailable(`registry ${url.host}: redirect to unsupported scheme ${current.protocol}`);
    }
    leftOrigin ||= current.origin !== url.origin;
  }
}

/** Reads a whole (small) body; fails past `limit` bytes. */
export async function readBody(res: HttpResponse, limit = 8 << 20): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > limit) {
        res.body.destroy();
        throw invalidArgument(`response from ${res.url.host}${res.url.pathname} is larger than ${limit} bytes`);
      }
      parts.push(chunk as Buffer);
    }
  } catch (err) {
    if (err instanceof BerthError) throw err;
    throw unavailable(`registry ${res.url.host}: reading ${res.url.pathname}: ${(err as Error).message}`, err);
  }
  return Buffer.concat(parts);
}

/** The registry's own words from an error body ({"errors":[{"code","message"}]}), or the status. */
export async function registryMessage(res: HttpResponse): Promise<string> {
  let text = '';
  try {
    text = (await readBody(res, 64 << 10)).toString('utf8');
    const doc = JSON.parse(text) as { errors?: { code?: string; message?: string }[] };
    const errs = (doc.errors ?? []).map((e) => [e.code, e.message].filter(Boolean).join(': ')).filter(Boolean);
    if (errs.length > 0) return errs.join('; ');
  } catch {
    // not JSON: fall through to the raw text
  }
  return `HTTP ${res.status}${text.trim() ? `: ${text.trim().slice(0, 200)}` : ''}`;
}
