// The process part of a spec: argv from image + request (Docker/kubelet override rules), the
// environment merge, and the user/group resolution.
import type { ContainerConfig__Output } from '../../api/gen/runtime/v1/ContainerConfig';
import type { Int64Value__Output } from '../../api/gen/runtime/v1/Int64Value';
import { invalidArgument } from '../../errdefs/errors';
import type { Process, Spec } from '../../oci/spec';
import type { ImageConfig } from './types';
import { mergeGids, type UserLookup } from './user';
import { int64 } from './values';

/** The PATH every container starts with unless its image or request sets one. */
export const DEFAULT_PATH_ENV = 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export function ensureProcess(spec: Spec): Process {
  spec.process ??= { user: { uid: 0, gid: 0 }, cwd: '/' };
  return spec.process;
}

/**
 * argv as kubelet expects: `command` replaces the image Entrypoint, `args` replace its Cmd; with
 * no command, the image Entrypoint runs with `args` (or the image Cmd when args are empty).
 */
export function containerArgs(config: Pick<ContainerConfig__Output, 'command' | 'args'>, image: ImageConfig, containerName: string): string[] {
  let command = [...(config.command ?? [])];
  let args = [...(config.args ?? [])];
  if (command.length === 0) {
    if (args.length === 0) args = [...(image.Cmd ?? [])];
    const entrypoint = image.Entrypoint ?? [];
    // An Entrypoint of [""] is Docker's way of saying "explicitly none".
    if (!(entrypoint.length === 1 && entrypoint[0] === '')) command = [...entrypoint];
  }
  const argv = [...command, ...args];
  if (argv.length === 0) throw invalidArgument(`container "${containerName}": no command specified and the image has no Entrypoint or Cmd`);
  return argv;
}

/**
 * Applies `overrides` to `base`: KEY=VALUE replaces the same key in place or appends it, a bare KEY
 * removes it. Later overrides win over earlier ones.
 */
export function mergeEnv(base: readonly string[], overrides: readonly string[]): string[] {
  const out: (string | undefined)[] = [...base];
  const index = new Map<string, number>();
  out.forEach((e, i) => index.set(envKey(e as string), i));
  for (const e of overrides) {
    const key = envKey(e);
    const at = index.get(key);
    if (!e.includes('=')) {
      if (at !== undefined) out[at] = undefined;
      index.delete(key);
      continue;
    }
    if (at !== undefined) out[at] = e;
    else index.set(key, out.push(e) - 1);
  }
  return out.filter((e): e is string => e !== undefined);
}

function envKey(e: string): string {
  const eq = e.indexOf('=');
  return eq < 0 ? e : e.slice(0, eq);
}

/**
 * The user string containerd derives from a security context (CRI rules): username wins over uid,
 * a group needs a user. Empty when neither is set (the image's User then applies).
 */
export function userString(username: string, uid: Int64Value__Output | null | undefined, gid: Int64Value__Output | null | undefined, field: string): string {
  let user = uid !== null && uid !== undefined ? String(int64(uid.value, `${field}.run_as_user`)) : '';
  if (username !== '') user = username;
  const group = gid !== null && gid !== undefined ? String(int64(gid.value, `${field}.run_as_group`)) : '';
  if (user === '') {
    if (group !== '') throw invalidArgument(`${field}.run_as_group ${group} is specified without a user`);
    return '';
  }
  return group === '' ? user : `${user}:${group}`;
}

/**
 * Sets process.user from `user` (empty: root) and the additional gids: the primary gid, the groups
 * listing `memberOf` in /etc/group (none when empty), and the requested supplemental groups (sorted, unique).
 */
export function applyUser(spec: Spec, user: string, memberOf: string, supplementalGroups: readonly number[], lookup: UserLookup): void {
  const process = ensureProcess(spec);
  const ids = user === '' ? { uid: 0, gid: 0 } : lookup.resolve(user);
  process.user = { ...process.user, uid: ids.uid, gid: ids.gid };
  const members = memberOf === '' ? [] : lookup.memberGids(memberOf);
  process.user.additionalGids = mergeGids([ids.gid], members, supplementalGroups);
}
