// Recursive read-only binds (CRI Mount.recursive_read_only) as containerd 2.0 puts them in the spec:
// runc's "rro" option in place of "ro", refused with a writable mount, with propagation other than
// private, or on a handler whose runc or kernel cannot do it — before any host directory is made.
import type { Mount__Output } from '../../../internal/api/gen/runtime/v1/Mount';
import { buildContainerSpec } from '../../../internal/cri/opts/container_spec';
import { kindOf } from '../../../internal/errdefs/errors';
import type { RuntimeOptions } from '../../../internal/cri/opts/types';
import type { Spec } from '../../../internal/oci/spec';
import { containerConfig, containerInput, mount, pinnedHost, RUNTIME } from './fixtures';

const RRO_RUNTIME: RuntimeOptions = { ...RUNTIME, recursiveReadOnlyMounts: true };

function build(mounts: Mount__Output[], runtime: RuntimeOptions = RRO_RUNTIME, resolved: string[] = []): Spec {
  const host = pinnedHost({
    propagation: { '/shared': 'shared' },
    resolveMountSource: (p) => {
      resolved.push(p);
      return p;
    },
  });
  return buildContainerSpec(containerInput({ containerConfig: containerConfig({ mounts }), runtime, host }));
}

function errorOf(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

const optionsAt = (spec: Spec, dst: string) => spec.mounts?.find((m) => m.destination === dst)?.options;

describe('recursive read-only mounts', () => {
  it('gives a recursive read-only bind "rro" (no "ro"), a plain read-only one "ro"', () => {
    const spec = build([
      mount({ container_path: '/rro', host_path: '/srv/rro', readonly: true, recursive_read_only: true }),
      mount({ container_path: '/ro', host_path: '/srv/ro', readonly: true }),
      mount({ container_path: '/rw', host_path: '/srv/rw' }),
    ]);
    expect(optionsAt(spec, '/rro')).toEqual(['rbind', 'rprivate', 'rro']);
    expect(optionsAt(spec, '/ro')).toEqual(['rbind', 'rprivate', 'ro']);
    expect(optionsAt(spec, '/rw')).toEqual(['rbind', 'rprivate', 'rw']);
  });

  it.each([
    ['a writable mount', { readonly: false }, 'recursive read-only mount conflicts with a read-write mount (host_path "/srv/x")'],
    [
      'host-to-container propagation',
      { readonly: true, propagation: 'PROPAGATION_HOST_TO_CONTAINER' as const, host_path: '/shared' },
      'recursive read-only mount needs private propagation, got PROPAGATION_HOST_TO_CONTAINER (host_path "/shared")',
    ],
    [
      'bidirectional propagation',
      { readonly: true, propagation: 'PROPAGATION_BIDIRECTIONAL' as const, host_path: '/shared' },
      'recursive read-only mount needs private propagation, got PROPAGATION_BIDIRECTIONAL (host_path "/shared")',
    ],
  ])('refuses it with %s, before making any host directory', (_what, o, message) => {
    const resolved: string[] = [];
    const err = errorOf(() =>
      build(
        [
          mount({ container_path: '/first', host_path: '/srv/first' }),
          mount({ container_path: '/x', host_path: '/srv/x', recursive_read_only: true, ...o }),
        ],
        RRO_RUNTIME,
        resolved,
      ),
    );
    expect(kindOf(err)).toBe('InvalidArgument');
    expect(err.message).toContain(message);
    expect(resolved).toEqual([]);
  });

  it('refuses it on a handler that cannot make it (no "rro" in runc features, or a kernel before 5.12)', () => {
    const m = mount({ container_path: '/x', host_path: '/srv/x', readonly: true, recursive_read_only: true });
    for (const runtime of [RUNTIME, { ...RUNTIME, recursiveReadOnlyMounts: false }]) {
      const err = errorOf(() => build([m], runtime));
      expect(kindOf(err)).toBe('InvalidArgument');
      expect(err.message).toContain('runtime handler does not support recursive read-only mounts (host_path "/srv/x")');
    }
    // Without recursive_read_only the same handler makes a plain read-only bind.
    expect(optionsAt(build([{ ...m, recursive_read_only: false }], RUNTIME), '/x')).toEqual(['rbind', 'rprivate', 'ro']);
  });
});
