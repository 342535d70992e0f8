// Users and groups of an image, resolved from its /etc/passwd and /etc/group the way containerd's
// oci.WithUser / WithUsername / WithUserID / WithAdditionalGIDs do. The files are read through an
// injected function (the caller reads them from the image's snapshot), so this stays pure.
import { invalidArgument } from '../../errdefs/errors';

/** Reads a file of the image rootfs by its absolute in-image path; undefined when it does not exist. */
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

const MAX_ID = 0xffffffff;

function parseId(text: string): number | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const n = Number(text);
  return n <= MAX_ID ? n : undefined;
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

  const byName = (name: string): PasswdEntry => {
    const u = users().find((e) => e.name === name);
    if (u === undefined) throw invalidArgument(`user "${name}" not found in the image's /etc/passwd`);
    return u;
  };
  const groupGid = (name: string): number => {
    const g = allGroups().find((e) => e.name === name);
    if (g === undefined) throw invalidArgument(`group "${name}" not found in the image's /etc/group`);
    return g.gid;
  };

  return {
    resolve(user: string): UserIds {
      const parts = user.split(':');
      if (parts.length === 1) {
        const uid = parseId(user);
        if (uid === undefined) {
          const u = byName(user);
          return { uid: u.uid, gid: u.gid };
        }
        // A numeric uid need not exist in passwd; it then runs with gid 0 (containerd's WithUserID).
        const u = users().find((e) => e.uid === uid);
        return { uid, gid: u?.gid ?? 0 };
      }
      if (parts.length === 2) {
        const [userPart, groupPart] = parts as [string, string];
        const uidNum = parseId(userPart);
        const gidNum = parseId(groupPart);
        const uid = uidNum ?? byName(userPart).uid;
        const gid = gidNum ?? groupGid(groupPart);
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
        .map((g) => g.gid);
    },
  };
}

/** Sorted, de-duplicated union of gid lists (containerd's mergeGids). */
export function mergeGids(...lists: readonly (readonly number[])[]): number[] {
  return [...new Set(lists.flat())].sort((a, b) => a - b);
}
