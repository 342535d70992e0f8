// One repository on a registry, reached through the ordered hosts of its domain: resolve a tag or
// digest to a manifest, fetch manifests and blobs by digest. Each request is tried anonymously
// first and once more after answering an auth challenge; a host that fails is skipped for the next.
import type { Descriptor } from '../../content/types';
import { sha256Digest } from '../../content/digest';
import { BerthError, failedPrecondition, kindOf, notFound, permissionDenied, unavailable } from '../../errdefs/errors';
import { MANIFEST_ACCEPT, sniffManifestType } from '../oci';
import type { Authorizer } from './auth';
import type { Capability, RegistryHost } from './hosts';
import { readBody, registryMessage, request, type HttpResponse } from './http';

const MANIFEST_MAX = 4 << 20;

export interface FetchedManifest {
  desc: Descriptor;
  data: Buffer;
}

/** Which failure to report when every host failed: a refusal says most, then "not there". */
const RANK: Record<string, number> = { PermissionDenied: 3, NotFound: 2, FailedPrecondition: 2, Unavailable: 1 };

/** Answers one request may get, retries included (containerd's resolver: 6). */
const MAX_ANSWERS = 6;

export class RegistryClient {
  constructor(
    private readonly hosts: readonly RegistryHost[],
    /** Repository path, e.g. "library/busybox". */
    readonly repository: string,
    private readonly authorizer: Authorizer,
    /** Ends the manifest requests (the pull was given up); each blob download has its own. */
    private readonly signal?: AbortSignal,
  ) {}

  /** Resolves a tag or digest to the manifest (or index) it names, verified by digest. */
  resolve(object: string): Promise<FetchedManifest> {
    return this.tryHosts('resolve', (host) => this.getManifest(host, object));
  }

  /** Fetches a manifest by descriptor, checking digest and size. */
  async fetchManifest(desc: Descriptor): Promise<Buffer> {
    const got = await this.tryHosts('pull', (host) => this.getManifest(host, desc.digest));
    if (got.data.length !== desc.size) {
      throw failedPrecondition(`manifest ${desc.digest}: size mismatch: expected ${desc.size} bytes, got ${got.data.length}`);
    }
    return got.data;
  }

  /** Opens a blob; the caller streams (and verifies) `body`, which `signal` ends. */
  openBlob(desc: Descriptor, signal?: AbortSignal): Promise<HttpResponse> {
    return this.tryHosts('pull', async (host) => {
      const res = await this.send(host, `blobs/${desc.digest}`, {}, signal);
      if (res.status !== 200) throw await this.failure(host, res, `blob ${desc.digest}`);
      return res;
    });
  }

  private async getManifest(host: RegistryHost, object: string): Promise<FetchedManifest> {
    const res = await this.send(host, `manifests/${object}`, { accept: MANIFEST_ACCEPT }, this.signal);
    if (res.status !== 200) throw await this.failure(host, res, `manifest ${this.repository}:${object}`);
    const data = await readBody(res, MANIFEST_MAX);
    const digest = sha256Digest(data);
    const claimed = res.headers['docker-content-digest'];
    const expected = object.startsWith('sha256:') ? object : typeof claimed === 'string' ? claimed : undefined;
    if (expected !== undefined && expected !== digest) {
      throw failedPrecondition(
        `manifest ${this.repository}@${expected} from ${host.host}: digest mismatch: expected ${expected}, actual ${digest}`,
      );
    }
    const contentType = (res.headers['content-type'] ?? '').split(';')[0].trim();
    const mediaType = contentType && contentType !== 'application/json' ? contentType : sniffManifestType(data);
    if (!mediaType) throw failedPrecondition(`manifest ${this.repository}:${object} from ${host.host}: unknown media type`);
    return { desc: { mediaType, digest, size: data.length }, data };
  }

  /**
   * GET <host>/v2/<repo>/<suffix>, answering one auth challenge, and asking again at once after a
   * 408 or 429 (a registry's brief rate limit), up to 6 answers in all, as containerd's resolver.
   */
  private async send(host: RegistryHost, suffix: string, headers: Record<string, string>, signal: AbortSignal | undefined): Promise<HttpResponse> {
    const url = new URL(`${host.scheme}://${host.host}${host.path}/${this.repository}/${suffix}`);
    const scope = `repository:${this.repository}:pull`;
    const authorize = (hop: URL) => this.authorizer.authorization(host, hop);
    const go = () => request(url, { headers: { ...host.headers, ...headers }, authorize, signal }, host);
    let res = await go();
    let challenged = false;
    for (let answers = 1; answers < MAX_ANSWERS; answers++) {
      if (res.status === 401 && !challenged && (await this.authorizer.answer(host, res, scope, signal))) challenged = true;
      else if (res.status !== 408 && res.status !== 429) break;
      res.body.destroy(); // not read: a hostile one need never end
      res = await go();
    }
    return res;
  }

  private async failure(host: RegistryHost, res: HttpResponse, what: string): Promise<BerthError> {
    const msg = await registryMessage(res);
    const where = `${what} at ${host.host}`;
    if (res.status === 404) return notFound(`${where}: not found: ${msg}`);
    if (res.status === 401 || res.status === 403) return permissionDenied(`${where}: access denied: ${msg}`);
    return unavailable(`${where}: ${msg}`);
  }

  private async tryHosts<T>(cap: Capability, fn: (host: RegistryHost) => Promise<T>): Promise<T> {
    const hosts = this.hosts.filter((h) => h.capabilities.has(cap));
    if (hosts.length === 0) throw failedPrecondition(`no registry host with capability ${cap} for ${this.repository}`);
    let worst: unknown;
    for (const host of hosts) {
      try {
        return await fn(host);
      } catch (err) {
        if (kindOf(err) === 'Canceled') throw err; // given up: no other host either
        if ((RANK[kindOf(err)] ?? 0) >= (RANK[kindOf(worst)] ?? 0) || worst === undefined) worst = err;
      }
    }
    throw worst;
  }
}
