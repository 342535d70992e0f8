// Whether berthd runs inside a user namespace (rootless, or a nested container), as runc's
// userns.RunningInUserNS decides it: the initial namespace maps the whole uid range onto itself.
import { readFileSync } from 'node:fs';

let cached: boolean | undefined;

export function runningInUserNamespace(): boolean {
  if (cached === undefined) {
    try {
      const map = readFileSync('/proc/self/uid_map', 'utf8').trim().split(/\s+/);
      cached = !(map.length === 3 && map[0] === '0' && map[1] === '0' && map[2] === '4294967295');
    } catch {
      cached = false; // no /proc/self/uid_map: a kernel without user namespaces
    }
  }
  return cached;
}
