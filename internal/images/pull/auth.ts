// Registry authentication: anonymous first; on a 401, answer the WWW-Authenticate challenge —
// Bearer: fetch a token from the realm (with the user's credentials when given, or exchange an
// identity token), Basic: send the credentials. What a challenge earns is kept per origin
// (scheme://host:port) for one pull and sent only there: a token got for one host never goes to
// another. The user's credentials answer only a challenge from the registry they are for
// (CredentialScope), asked directly — not one a redirect led to — and never travel from an https
// registry to a plain-http token realm; any other challenge is answered anonymously.
import { permissionDenied, unavailable } from '../../errdefs/errors';
import { CredentialScope } from './credential_scope';
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
  /** The registry these credentials are for (URL or host[:port]); absent = the image's registry. */
  server_address?: string;
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

const originOf = (host: RegistryHost) => new URL(`${host.scheme}://${host.host}`).origin;

export class Authorizer {
  /** The Authorization header each origin's challenge was answered with. */
  private readonly byOrigin = new Map<string, string>();
  private readonly scope: CredentialScope;

  /** `domain` is the image reference's registry. */
  constructor(
    private readonly auth: AuthConfig | undefined,
    domain: string,
  ) {
    this.scope = new CredentialScope(domain, auth?.server_address);
  }

  /**
   * The Authorization for one request (or redirect hop) to `url` made for `host`: what `url`'s
   * origin earned, else a registry_token when `url` is `host` itself and the token is for it.
   */
  authorization(host: RegistryHost, url: URL): string | undefined {
    const earned = this.byOrigin.get(url.origin);
    if (earned) return earned;
    if (this.auth?.registry_token && url.origin === originOf(host) && this.scope.allows(host)) {
      return `Bearer ${this.auth.registry_token}`;
    }
    return undefined;
  }

  /**
   * Answers a 401 that `res` brought from a request for `host` (res.url may be where a redirect
   * led). Returns false when there is nothing new to try (the caller then reports the refusal).
   */
  async answer(host: RegistryHost, res: HttpResponse, scope: string, signal?: AbortSignal): Promise<boolean> {
    const header = res.headers['www-authenticate'];
    const challenge = parseChallenge(Array.isArray(header) ? header[0] : (header ?? ''));
    const origin = res.url.origin;
    const auth = !res.leftOrigin && this.scope.allows(host) ? this.auth : undefined;
    const previous = this.byOrigin.get(origin);
    let next: string | undefined;
    if (challenge?.scheme === 'basic') {
      const c = credentials(auth);
      if (c) next = basicHeader(c);
    } else if (challenge?.scheme === 'bearer' && challenge.params.realm) {
      next = `Bearer ${await this.fetchToken(host, res.url, auth, challenge.params, scope, signal)}`;
    }
    if (!next || next === previous) return false;
    this.byOrigin.set(origin, next);
    return true;
  }

  /** A token from the realm `challenger` named; `auth` is undefined for an anonymous one. */
  private async fetchToken(
    host: RegistryHost,
    challenger: URL,
    auth: AuthConfig | undefined,
    params: Record<string, string>,
    scope: string,
    signal: AbortSignal | undefined,
  ): Promise<string> {
    let realm: URL;
    try {
      realm = new URL(params.realm);
    } catch {
      throw unavailable(`registry ${challenger.host}: bad token realm ${JSON.stringify(params.realm)}`);
    }
    if (realm.protocol !== 'http:' && realm.protocol !== 'https:') {
      throw unavailable(`registry ${challenger.host}: unsupported token realm scheme ${realm.protocol}`);
    }
    const c = credentials(auth);
    if ((c || auth?.identity_token) && challenger.protocol === 'https:' && realm.protocol === 'http:') {
      throw permissionDenied(
        `registry ${challenger.host}: refusing to send credentials to token realm ${realm.origin} over plain http`,
      );
    }
    let res: HttpResponse;
    if (auth?.identity_token) {
      const form = new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: auth.identity_token,
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
          signal,
        },
        host,
      );
    } else {
      if (params.service) realm.searchParams.set('service', params.service);
      realm.searchParams.set('scope', scope);
      res = await request(realm, { headers: c ? { authorization: basicHeader(c) } : {}, signal }, host);
    }
    if (res.status !== 200) {
      const msg = await registryMessage(res);
      throw permissionDenied(`registry ${challenger.host}: token server ${realm.host} refused ${scope}: ${msg}`);
    }
    const body = await readBody(res, 1 << 20);
    let token: string | undefined;
    try {
      const doc = JSON.parse(body.toString('utf8')) as { token?: string; access_token?: string };
      token = doc.token || doc.access_token;
    } catch {
      // handled below
    }
    if (!token) throw unavailable(`registry ${challenger.host}: token server ${realm.host} answered without a token`);
    // It goes into a header: printable ASCII only (a CR/LF would be refused there, as an internal error).
    if (typeof token !== 'string' || !/^[\x21-\x7e]+$/.test(token)) {
      throw unavailable(`registry ${challenger.host}: token server ${realm.host} answered a token that is not printable ASCII`);
    }
    return token;
  }
}
