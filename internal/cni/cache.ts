// The result cache, like libcni's (<cacheDir>/results/<network>-<containerID>-<ifName>): written after
// a successful ADD so DEL and CHECK get the prevResult and runtime config the ADD used, even after a
// restart or a change in conf_dir; removed after a successful DEL.
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { internal } from '../errdefs/errors';
import { replaceFileSync } from '../fs/replace_file';
import type { NetworkConfigList } from './types';

export interface CachedAttachment {
  kind: 'cniCacheV1';
  containerId: string;
  ifName: string;
  networkName: string;
  /**
   * The netns path the ADD ran with (libcni 1.1+ records it too), so a DEL whose pod record was
   * lost can still reach the pod's side; absent in entries written before berth recorded it.
   */
  netns?: string;
  /** The network config the ADD ran with; DEL prefers it to today's conf_dir. */
  config: NetworkConfigList;
  cniArgs: Array<[string, string]>;
  capabilityArgs: Record<string, unknown>;
  /** The final result of the chain, as printed by its last plugin. */
  result: Record<string, unknown>;
}

/** A sandbox ID as it sits in a result file's name, <network>-<containerID>-<ifName>. */
const POD_ID_IN_NAME = /-[0-9a-f]{64}-/g;

export class ResultCache {
  constructor(private readonly cacheDir: string) {}

  private dir(): string {
    return join(this.cacheDir, 'results');
  }

  private file(networkName: string, containerId: string, ifName: string): string {
    return join(this.dir(), `${networkName}-${containerId}-${ifName}`);
  }

  /** Atomically records an attachment (write to a temp file, then rename). */
  save(entry: CachedAttachment): void {
    const path = this.file(entry.networkName, entry.containerId, entry.ifName);
    try {
      mkdirSync(this.dir(), { recursive: true, mode: 0o700 });
      replaceFileSync(path, JSON.stringify(entry), 0o600);
    } catch (err) {
      throw internal(`save CNI result cache ${path}: ${(err as Error).message}`, err);
    }
  }

  /** The attachment of one network, or undefined when none (or unreadable: DEL must still run). */
  load(networkName: string, containerId: string, ifName: string): CachedAttachment | undefined {
    return this.read(this.file(networkName, containerId, ifName));
  }

  /** The result files naming a container, in file-name order. */
  private namesOf(containerId: string): string[] {
    let names: string[];
    try {
      names = readdirSync(this.dir());
    } catch {
      return [];
    }
    return names.filter((name) => name.includes(`-${containerId}-`) && !name.endsWith('.tmp')).sort();
  }

  /** Whether any result file names the container (one readdir; an unreadable one counts too). */
  has(containerId: string): boolean {
    return this.namesOf(containerId).length > 0;
  }

  /** Every cached attachment of a container, in file-name order. */
  list(containerId: string): CachedAttachment[] {
    return this.namesOf(containerId)
      .map((name) => this.read(join(this.dir(), name)))
      .filter((entry): entry is CachedAttachment => entry?.containerId === containerId);
  }

  /**
   * Every cached attachment of a container not in `known`: ADDs whose DEL never ran for a pod no
   * record owns. A file whose name holds a known ID is not read, so a start with no such entry
   * costs one readdir.
   */
  listUnknown(known: ReadonlySet<string>): CachedAttachment[] {
    let names: string[];
    try {
      names = readdirSync(this.dir());
    } catch {
      return [];
    }
    // A pod's ID (64 hex digits) between dashes in the name: one set lookup per name, not a scan of
    // every known ID. A name it misses is read, and its entry's own containerId decides.
    const namesKnownPod = (name: string) => (name.match(POD_ID_IN_NAME) ?? []).some((m) => known.has(m.slice(1, -1)));
    return names
      .filter((name) => !name.endsWith('.tmp') && !namesKnownPod(name))
      .sort()
      .map((name) => this.read(join(this.dir(), name)))
      .filter((entry): entry is CachedAttachment => entry !== undefined && !known.has(entry.containerId));
  }

  remove(networkName: string, containerId: string, ifName: string): void {
    rmSync(this.file(networkName, containerId, ifName), { force: true });
  }

  private read(path: string): CachedAttachment | undefined {
    try {
      const entry = JSON.parse(readFileSync(path, 'utf8')) as CachedAttachment;
      return entry.kind === 'cniCacheV1' ? entry : undefined;
    } catch {
      return undefined;
    }
  }
}
