// Image references, normalised the way docker/containerd do: `busybox` is
// `docker.io/library/busybox:latest`; a first component is a registry domain only when it has a
// `.` or `:` or is `localhost`; repository paths are lower case; a digest pins the content.
import { invalidArgument } from '../errdefs/errors';

export interface Reference {
  /** Registry host[:port], e.g. "docker.io", "localhost:5000". */
  domain: string;
  /** Repository path inside the registry, e.g. "library/busybox". */
  path: string;
  tag?: string;
  /** "sha256:<64 hex>". */
  digest?: string;
}

export const DEFAULT_DOMAIN = 'docker.io';
const LEGACY_DEFAULT_DOMAIN = 'index.docker.io';
const OFFICIAL_REPO_PREFIX = 'library/';
const DEFAULT_TAG = 'latest';
const NAME_MAX = 255;

const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN_RE = new RegExp(`^(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[0-9a-fA-F:]+\\])(?::[0-9]+)?$`);
const PATH_COMPONENT_RE = /^[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*$/;
const TAG_RE = /^[\w][\w.-]{0,127}$/;
const DIGEST_RE = /^sha256:[a-f0-9]{64}$/;
const ANY_DIGEST_RE = /^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]+$/;
const HEX64_RE = /^[a-f0-9]{64}$/;

/**
 * Parses and normalises a reference; adds the `latest` tag when there is neither tag nor digest.
 * InvalidArgument naming the string when it is not a valid reference.
 */
export function parseReference(input: string): Reference {
  const ref = parseNormalizedNamed(input);
  if (ref.tag === undefined && ref.digest === undefined) ref.tag = DEFAULT_TAG;
  return ref;
}

/** As parseReference but without adding a default tag (a bare repository name stays bare). */
export function parseNormalizedNamed(input: string): Reference {
  const bad = (why: string) => invalidArgument(`invalid image reference ${JSON.stringify(input)}: ${why}`);
  if (input === '') throw bad('empty');
  if (HEX64_RE.test(input)) throw bad('cannot specify 64-byte hexadecimal strings');

  let rest = input;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!ANY_DIGEST_RE.test(digest)) throw bad(`invalid digest ${JSON.stringify(digest)}`);
    if (!DIGEST_RE.test(digest)) throw bad(`unsupported digest ${JSON.stringify(digest)} (want sha256:<64 hex>)`);
  }
  // A tag is after the last ':' that follows the last '/', so "localhost:5000/x" keeps its port.
  let tag: string | undefined;
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG_RE.test(tag)) throw bad(`invalid tag ${JSON.stringify(tag)}`);
  }

  let domain: string;
  let path: string;
  const slash = rest.indexOf('/');
  const first = slash < 0 ? '' : rest.slice(0, slash);
  if (slash < 0 || (!/[.:]/.test(first) && first !== 'localhost' && first.toLowerCase() === first)) {
    domain = DEFAULT_DOMAIN;
    path = rest;
  } else {
    domain = first;
    path = rest.slice(slash + 1);
  }
  if (domain === LEGACY_DEFAULT_DOMAIN) domain = DEFAULT_DOMAIN;
  if (domain === DEFAULT_DOMAIN && !path.includes('/')) path = OFFICIAL_REPO_PREFIX + path;

  if (!DOMAIN_RE.test(domain)) throw bad(`invalid registry domain ${JSON.stringify(domain)}`);
  // A port that is none: 0 would have the HTTP client dial its default (80), one past 65535 fail as "Invalid URL".
  const port = /:(\d+)$/.exec(domain)?.[1];
  if (port !== undefined && !(Number(port) >= 1 && Number(port) <= 65535)) throw bad(`invalid registry port in ${JSON.stringify(domain)}`);
  if (path === '') throw bad('empty repository name');
  if (path.toLowerCase() !== path) throw bad('repository name must be lowercase');
  for (const component of path.split('/')) {
    if (!PATH_COMPONENT_RE.test(component)) throw bad(`invalid repository path component ${JSON.stringify(component)}`);
  }
  if (domain.length + 1 + path.length > NAME_MAX) throw bad(`repository name longer than ${NAME_MAX} characters`);
  const ref: Reference = { domain, path };
  if (tag !== undefined) ref.tag = tag;
  if (digest !== undefined) ref.digest = digest;
  return ref;
}

/** "domain/path". */
export function repositoryOf(ref: Reference): string {
  return `${ref.domain}/${ref.path}`;
}

/** The full normalised string: "domain/path[:tag][@digest]". */
export function formatReference(ref: Reference): string {
  return repositoryOf(ref) + (ref.tag !== undefined ? `:${ref.tag}` : '') + (ref.digest !== undefined ? `@${ref.digest}` : '');
}

/**
 * The name an image is recorded under: a reference with a digest drops its tag, as containerd's
 * ParseDockerRef does (so `name:tag@digest` is found as the `name@digest` a pull records).
 */
export function recordName(ref: Reference): string {
  return formatReference(ref.digest !== undefined ? { domain: ref.domain, path: ref.path, digest: ref.digest } : ref);
}

/** Normalises a reference string: parseReference then formatReference. */
export function normalizeReference(input: string): string {
  return formatReference(parseReference(input));
}

/** The short form people type: "busybox:latest", "user/x:1", "localhost:5000/x:1". */
export function familiarString(ref: Reference): string {
  let name = repositoryOf(ref);
  if (ref.domain === DEFAULT_DOMAIN) {
    name = ref.path.startsWith(OFFICIAL_REPO_PREFIX) ? ref.path.slice(OFFICIAL_REPO_PREFIX.length) : ref.path;
  }
  return name + (ref.tag !== undefined ? `:${ref.tag}` : '') + (ref.digest !== undefined ? `@${ref.digest}` : '');
}

/** The reference to ask a registry for: the digest when pinned, the tag otherwise. */
export function objectOf(ref: Reference): string {
  return ref.digest ?? ref.tag ?? DEFAULT_TAG;
}
