// The manifest a node takes from an index, as containerd 1.6's platforms.Only and images.Manifest
// choose it: normalized platforms, exact variants, the node's own platform before what it can also run.
import { kindOf } from '../../../internal/errdefs/errors';
import type { Descriptor } from '../../../internal/content/types';
import type { Index } from '../../../internal/images/oci';
import { normalizePlatform, onlyPlatform, type Platform } from '../../../internal/images/platforms';
import { selectManifest } from '../../../internal/images/walk';

const amd64 = onlyPlatform({ os: 'linux', architecture: 'amd64' });
const arm64 = onlyPlatform({ os: 'linux', architecture: 'arm64' });

function indexOf(...platforms: Array<Platform | undefined>): Index {
  return {
    manifests: platforms.map((platform, i) => ({
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      digest: `sha256:${String(i).padStart(64, '0')}`,
      size: 1,
      platform,
    })),
  } as Index;
}
const pick = (index: Index, m = amd64): Descriptor['platform'] | 'none' => {
  try {
    return selectManifest(index, m, 'index').platform;
  } catch (err) {
    return kindOf(err) === 'NotFound' ? 'none' : (err as never);
  }
};
const p = (architecture: string, variant?: string, os = 'linux'): Platform => ({ os, architecture, variant });

describe('platforms', () => {
  it('normalizes as containerd: case, aliases, default variants', () => {
    expect(normalizePlatform(p('X86_64', 'V1', 'Linux'))).toEqual({ os: 'linux', architecture: 'amd64' });
    expect(normalizePlatform(p('aarch64', '8'))).toEqual({ os: 'linux', architecture: 'arm64' });
    expect(normalizePlatform(p('armhf'))).toEqual({ os: 'linux', architecture: 'arm', variant: 'v7' });
    expect(normalizePlatform(p('i386', 'x'))).toEqual({ os: 'linux', architecture: '386' });
    expect(normalizePlatform(p('amd64', undefined, ''))).toEqual({ os: 'linux', architecture: 'amd64' });
  });

  it('an amd64 node runs amd64 (no variant or v1), then 386; never a v2 or v3 build', () => {
    for (const q of [p('amd64'), p('AMD64'), p('x86_64'), p('amd64', 'v1'), p('386'), p('i386')]) expect(amd64.match(q)).toBe(true);
    for (const q of [p('amd64', 'v2'), p('amd64', 'v3'), p('arm64'), p('amd64', undefined, 'windows')]) expect(amd64.match(q)).toBe(false);
    expect(amd64.less(p('amd64'), p('386'))).toBe(true);
    expect(amd64.less(p('386'), p('amd64'))).toBe(false);
  });

  it('an arm64 node runs arm64, then arm v8 down to v5', () => {
    expect(arm64.match(p('arm64', 'v8'))).toBe(true);
    expect(arm64.match(p('arm', 'v7'))).toBe(true);
    expect(arm64.match(p('arm', 'v5'))).toBe(true);
    expect(arm64.match(p('amd64'))).toBe(false);
    expect(arm64.less(p('arm', 'v8'), p('arm', 'v7'))).toBe(true);
  });

  it('selects from an index as containerd does', () => {
    expect(pick(indexOf(p('amd64', 'v3'), p('amd64', 'v2'), p('amd64')))).toEqual(p('amd64'));
    expect(pick(indexOf(p('amd64', 'v2'), p('arm64', 'v8')))).toBe('none');
    expect(pick(indexOf(p('386'), p('arm64')))).toEqual(p('386'));
    expect(pick(indexOf(p('386'), p('amd64')))).toEqual(p('amd64'));
    expect(pick(indexOf(p('AMD64', undefined, 'Linux'), p('arm64')))).toEqual(p('AMD64', undefined, 'Linux'));
    expect(pick(indexOf(p('unknown', undefined, 'unknown'), p('amd64')))).toEqual(p('amd64'));
    // An entry naming no platform comes after every one that matches (its config decides, later).
    expect(pick(indexOf(undefined, p('386')))).toEqual(p('386'));
    expect(pick(indexOf(undefined, p('arm64')))).toBeUndefined();
    expect(pick(indexOf(p('arm', 'v7'), p('arm64')), arm64)).toEqual(p('arm64'));
    expect(pick(indexOf(p('arm', 'v6'), p('arm', 'v7')), arm64)).toEqual(p('arm', 'v7'));
  });
});
