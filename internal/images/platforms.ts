// Which manifest of an index a node runs: containerd's platforms package (1.6). Platforms are
// compared after normalization (case, architecture aliases, default variants), variants exactly,
// and a node takes, in order of preference, its own platform and those it can also run (amd64:
// 386; arm64: arm v8 to v5). So an index listing amd64/v3 before plain amd64 gives plain amd64, as
// under containerd, never a build for CPU features the node may lack.

export interface Platform {
  os: string;
  architecture: string;
  variant?: string;
}

export interface PlatformMatcher {
  /** The node can run `p`. */
  match(p: Platform): boolean;
  /** `a` is preferred to `b` (both matched). */
  less(a: Platform, b: Platform): boolean;
  /** What the node is, for messages. */
  readonly wanted: Platform;
}

/** Node's process.arch in Go's (and OCI's) spelling. */
const NODE_ARCH: Record<string, string> = { x64: 'amd64', ia32: '386' };

export function hostPlatform(): Platform {
  return { os: 'linux', architecture: NODE_ARCH[process.arch] ?? process.arch };
}

export function formatPlatform(p: Platform): string {
  return `${p.os}/${p.architecture}${p.variant ? `/${p.variant}` : ''}`;
}

function normalizeArch(architecture: string, variant: string): [string, string] {
  const arch = architecture.toLowerCase();
  const v = variant.toLowerCase();
  switch (arch) {
    case 'i386':
      return ['386', ''];
    case 'x86_64':
    case 'x86-64':
    case 'amd64':
      return ['amd64', v === 'v1' ? '' : v];
    case 'aarch64':
    case 'arm64':
      return ['arm64', v === '8' || v === 'v8' ? '' : v];
    case 'armhf':
      return ['arm', 'v7'];
    case 'armel':
      return ['arm', 'v6'];
    case 'arm':
      if (v === '' || v === '7') return ['arm', 'v7'];
      return ['arm', ['5', '6', '8'].includes(v) ? `v${v}` : v];
    default:
      return [arch, v];
  }
}

/** containerd's platforms.Normalize: an empty OS is the node's (linux), macos is darwin. */
export function normalizePlatform(p: Platform): Platform {
  const os = p.os === '' ? 'linux' : p.os.toLowerCase() === 'macos' ? 'darwin' : p.os.toLowerCase();
  const [architecture, variant] = normalizeArch(p.architecture, p.variant ?? '');
  return variant === '' ? { os, architecture } : { os, architecture, variant };
}

/** The platforms a node of `p` runs, best first (containerd's platformVector). */
function platformVector(p: Platform): Platform[] {
  const vector = [p];
  const level = (v: string | undefined) => Number.parseInt((v ?? '').replace(/^v/, ''), 10);
  if (p.architecture === 'amd64') {
    for (let n = level(p.variant) - 1; n >= 1; n--) vector.push({ os: p.os, architecture: 'amd64', variant: `v${n}` });
    vector.push({ os: p.os, architecture: '386' });
  } else if (p.architecture === 'arm') {
    for (let n = level(p.variant) - 1; n >= 5; n--) vector.push({ os: p.os, architecture: 'arm', variant: `v${n}` });
  } else if (p.architecture === 'arm64') {
    vector.push(...platformVector({ os: p.os, architecture: 'arm', variant: p.variant ?? 'v8' }));
  }
  return vector;
}

const same = (a: Platform, b: Platform) => a.os === b.os && a.architecture === b.architecture && (a.variant ?? '') === (b.variant ?? '');

/** containerd's platforms.Only: `p` and what it can also run, in that order. */
export function onlyPlatform(p: Platform): PlatformMatcher {
  const vector = platformVector(normalizePlatform(p));
  const rank = (q: Platform) => {
    const n = normalizePlatform(q);
    const i = vector.findIndex((v) => same(v, n));
    return i < 0 ? vector.length : i;
  };
  return {
    wanted: vector[0]!,
    match: (q) => rank(q) < vector.length,
    less: (a, b) => rank(a) < rank(b),
  };
}
