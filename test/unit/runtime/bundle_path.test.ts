// A task bundle's path (internal/runtime/v2/bundle.ts): what path.join gives for the same parts,
// whatever the state directory looks like, and never a path outside it for a hostile name.
import { join } from 'node:path';
import { bundlePath, TASK_DIR } from '../../../internal/runtime/v2/bundle';

describe('bundlePath', () => {
  it.each(['/run/berth', '/run/berth/', '/run//berth/./x/..', 'relative/state', '/'])('is path.join of its parts under %s', (stateDir) => {
    for (const [ns, id] of [['k8s.io', 'a'.repeat(64)], ['default', 'c1'], ['k8s.io', 'x.y-z_1']]) {
      expect(bundlePath(stateDir, ns!, id!)).toBe(join(stateDir, TASK_DIR, ns!, id!));
    }
  });

  it('refuses a name that is not one safe path component', () => {
    for (const id of ['..', '.', 'a/b', '../x', '', '.hidden', 'a..b', 'x'.repeat(129)]) {
      expect(() => bundlePath('/run/berth', 'k8s.io', id)).toThrow(/not a valid name/);
      expect(() => bundlePath('/run/berth', id, 'c1')).toThrow(/not a valid name/);
    }
  });
});
