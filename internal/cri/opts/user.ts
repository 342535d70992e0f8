// Users and groups of an image, resolved from its /etc/passwd and /etc/group the way containerd's
// oci.WithUser / WithUsername / WithUserID / WithAdditionalGIDs do. The files are read through an
// injected function (the caller reads them from the image's snapshot), so this stays pure.
import { invalidArgument } from '../../errdefs/errors';

/**
 * Reads a file of the image rootfs by its absolute in-image path, resolved inside the rootfs;
 * undefined when it does not exist. Throws when it exists but must not be read (not a regular
 * file, too big), as containerd's openUserFile does.
 */
export type ReadImageFile = (pathInImage: string) => string | undefined;

export interface PasswdEntry {
  name: string;
  uid: number;
  gid: number;
  home: string;
  shell: string;
}

export interface GroupEntry {
  name: string;
  gid: number;
  members: string[];
}

export interface UserIds {
  uid: number;
  gid: number;
}

/** How spec builders learn about the image's users; see userLookupFromImage. */
export interface UserLookup {
  /** Resolves an image/CRI user string: "name", "uid", "name:group", "uid:gid", ... */
  resolve(user: string): UserIds;
  /** Gids of the groups listing `user` (a name or a numeric uid) as a member, excluding its own-named group. */
  memberGids(user: string): number[];
}

/**
 * The largest uid or gid a container may get: runc requires ids <= MaxInt32, and containerd refuses
 * bigger ones rather than let them wrap (CVE-2024-40635).
 */
export const MAX_ID = 0x7fffffff;

/** A decimal id of any size (range is checked where it is used, so the error can say which id). */
function parseId(text: string): number | undefined {
  return /^\d+$/.test(text) ? Number(text) : undefined;
}

function checkId(id: number, what: () => string): number {
  if (id > MAX_ID) throw invalidArgument(`${what()} out of range (at most ${MAX_ID})`);
  return id;
}

function entries(text: string | undefined): string[][] {
  if (text === undefined) return [];
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => l.split(':'));
}

/** Parses passwd(5) text; malformed lines are skipped, as libc does. */
export function parsePasswd(text: string | undefined): PasswdEntry[] {
  const out: PasswdEntry[] = [];
  for (const f of entries(text)) {
    const uid = parseId(f[2] ?? '');
    const gid = parseId(f[3] ?? '');
    if (f[0] === undefined || f[0] === '' || uid === undefined || gid === undefined) continue;
    out.push({ name: f[0], uid, gid, home: f[5] ?? '', shell: f[6] ?? '' });
  }
  return out;
}

/** Parses group(5) text; malformed lines are skipped. */
export function parseGroup(text: string | undefined): GroupEntry[] {
  const out: GroupEntry[] = [];
  for (const f of entries(text)) {
    const gid = parseId(f[2] ?? '');
    if (f[0] === undefined || f[0] === '' || gid === undefined) continue;
    const members = (f[3] ?? '').split(',').map((m) => m.trim()).filter((m) => m !== '');
    out.push({ name: f[0], gid, members });
  }
  return out;
}

/** A UserLookup over an image's /etc/passwd and /etc/group, read lazily once each. */
export function userLookupFromImage(readFile: ReadImageFile): UserLookup {
  let passwd: PasswdEntry[] | undefined;
  let groups: GroupEntry[] | undefined;
  const users = () => (passwd ??= parsePasswd(readFile('/etc/passwd')));
  const allGroups = () => (groups ??= parseGroup(readFile('/etc/group')));

  // Ids read from the image are checked as they are used: an unused odd line breaks nothing.
  const passwdUid = (u: PasswdEntry): number => checkId(u.uid, () => `user "${u.name}" in the image's /etc/passwd: uid ${u.uid}`);
  const passwdGid = (u: PasswdEntry): number => checkId(u.gid, () => `user "${u.name}" in the image's /etc/passwd: gid ${u.gid}`);
  const groupId = (g: GroupEntry): number => checkId(g.gid, () => `group "${g.name}" in the image's /etc/group: gid ${g.gid}`);
  const byName = (name: string): PasswdEntry => {
    const u = users().find((e) => e.name === name);
    if (u === undefined) throw invalidArgument(`user "${name}" not found in the image's /etc/passwd`);
    return u;
  };
  const groupGid = (name: string): number => {
    const g = allGroups().find((e) => e.name === name);
    if (g === undefined) throw invalidArgument(`group "${name}" not found in the image's /etc/group`);
    return groupId(g);
  };
  // containerd's WithUser wording for a numeric id past the bound.
  const requested = (user: string, id: number, which: 'uid' | 'gid'): number =>
    checkId(id, () => `invalid USER value ${JSON.stringify(user)}: ${which}`);

  return {
    resolve(user: string): UserIds {
      const parts = user.split(':');
      if (parts.length === 1) {
        const uidNum = parseId(user);
        if (uidNum === undefined) {
          const u = byName(user);
          return { uid: passwdUid(u), gid: passwdGid(u) };
        }
        const uid = requested(user, uidNum, 'uid');
        // A numeric uid need not exist in passwd; it then runs with gid 0 (containerd's WithUserID).
        const u = users().find((e) => e.uid === uid);
        return { uid, gid: u === undefined ? 0 : passwdGid(u) };
      }
      if (parts.length === 2) {
        const [userPart, groupPart] = parts as [string, string];
        const uidNum = parseId(userPart);
        const gidNum = parseId(groupPart);
        const uid = uidNum === undefined ? passwdUid(byName(userPart)) : requested(user, uidNum, 'uid');
        const gid = gidNum === undefined ? groupGid(groupPart) : requested(user, gidNum, 'gid');
        return { uid, gid };
      }
      throw invalidArgument(`invalid user "${user}": want name, uid, name:group or uid:gid`);
    },

    memberGids(user: string): number[] {
      let name = user;
      const uid = parseId(user);
      if (uid !== undefined) {
        const u = users().find((e) => e.uid === uid);
        if (u === undefined) return [];
        name = u.name;
      }
      return allGroups()
        .filter((g) => g.name !== name && g.members.includes(name))
        .map(groupId);
    },
  };
}

/** Sorted, de-duplicated union of gid lists (containerd's mergeGids). */
export function mergeGids(...lists: readonly (readonly number[])[]): number[] {
  return [...new Set(lists.flat())].sort((a, b) => a - b);
}
