// Registry authentication: anonymous first; on a 401, answer the WWW-Authenticate challenge —
// Bearer: fetch a token from the realm (with the user's credentials when given, or exchange an
// identity token), Basic: send the credentials. Tokens are cached per host and scope for one pull.
import type { OutgoingHttpHeaders } from 'node:http';
import { permissionDenied, unavailable } from '../../errdefs/errors';
import { readBody, registryMessage, request, type HttpResponse } from './http';
import type { RegistryHost } from './hosts';

/** The CRI AuthConfig fields. */
export interface AuthConfig {
  username?: string;
  password?: string;
  /** base64("username:password"). */
  auth?: string;
  /** A refresh token, exchanged at the realm for an access token (OAuth2). */
  identity_token?: string;
  /** A bearer token sent as is. */
  registry_token?: string;
}

export interface Challenge {
  scheme: string;
  params: Record<string, string>;
}

/** Parses `Bearer realm="...",service="...",scope="..."` (one challenge is all registries send). */
export function parseChallenge(header: string): Challenge | undefined {
  const m = /^\s*([A-Za-z]+)\s*(.*)$/.exec(header);
  if (!m) return undefined;
  const params: Record<string, string> = {};
  const re = /([A-Za-z_]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g;
  for (let p = re.exec(m[2]); p; p = re.exec(m[2])) params[p[1].toLowerCase()] = (p[2] ?? p[3]).replace(/\\(.)/g, '$1');
  return { scheme: m[1].toLowerCase(), params };
}

function credentials(auth: AuthConfig | undefined): { username: string; password: string } | undefined {
  if (!auth) return undefined;
  if (auth.username) return { username: auth.username, password: auth.password ?? '' };
  if (auth.auth) {
    const decoded = Buffer.from(auth.auth, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0) return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
  }
  return undefined;
}

const basicHeader = (c: { username: string; password: string }) =>
  `Basic ${Buffer.from(`${c.username}:${c.password}`).toString('base64')}`;

export class Authorizer {
  private readonly byHost = new Map<string, string>();

  constructor(private readonly auth: AuthConfig | undefined) {}

  /** Headers to send to `host` (empty until a challenge was answered, except a registry_token). */
  headers(host: RegistryHost): OutgoingHttpHeaders {
    const cached = this.byHost.get(host.host);
    if (cached) return { authorization: cached };
    if (this.auth?.registry_token) return { authorization: `Bearer ${this.auth.registry_token}` };
    return {};
  }

  /**
   * Answers a 401 from `host` for `scope`. Returns false when there is nothing new to try (the
   * caller then reports the registry's refusal).
   */
  async answer(host: RegistryHost, res: HttpResponse, scope: string): Promise<boolean> {
    const header = res.headers['www-authenticate'];
    const challenge = parseChallenge(Array.isArray(header) ? header[0] : (header ?? ''));
    const previous = this.byHost.get(host.host);
    let next: string | undefined;
    if (challenge?.scheme === 'basic') {
      const c = credentials(this.auth);
      if (c) next = basicHeader(c);
    } else if (challenge?.scheme === 'bearer' && challenge.params.realm) {
      next = `Bearer ${await this.fetchToken(host, challenge.params, scope)}`;
    }
    if (!next || next === previous) return false;
    this.byHost.set(host.host, next);
    return true;
  }

  private async fetchToken(host: RegistryHost, params: Record<string, string>, scope: string): Promise<string> {
    const realm = new URL(params.realm);
    const c = credentials(this.auth);
    let res: HttpResponse;
    if (this.auth?.identity_token) {
      const form = new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: this.auth.identity_token,
        client_id: 'berth',
        scope,
        ...(params.service ? { service: params.service } : {}),
      });
      res = await request(
        realm,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: Buffer.from(form.toString()),
        },
        host,
      );
    } else {
      if (params.service) realm.searchParams.set('service', params.service);
      realm.searchParams.set('scope', scope);
      res = await request(realm, { headers: c ? { authorization: basicHeader(c) } : {} }, host);
    }
    if (res.status !== 200) {
      const msg = await registryMessage(res);
      throw permissionDenied(`registry ${host.host}: token server ${realm.host} refused ${scope}: ${msg}`);
    }
    const body = await readBody(res, 1 << 20);
    let token: string | undefined;
    try {
      const doc = JSON.parse(body.toString('utf8')) as { token?: string; access_token?: string };
      token = doc.token || doc.access_token;
    } catch {
      // handled below
    }
    if (!token) throw unavailable(`registry ${host.host}: token server ${realm.host} answered without a token`);
    return token;
  }
}
