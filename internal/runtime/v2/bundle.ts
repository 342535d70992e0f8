// A task's OCI bundle: <state>/io.containerd.runtime.v2.task/<namespace>/<id>/ holding config.json,
// rootfs/ (the shim mounts the rootfs here), the `log` FIFO the shim writes to when one was started
// in it (shim_log.ts), and the files the shim leaves (address, shim.pid, options.json, runtime).
// The directory name must be the task id: the shim's `delete` subcommand finds the bundle as
// dirname(cwd)/<id>.
import { unmountAll } from '../../mount/mount';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { alreadyExists, failedPrecondition, invalidArgument, messageOf, notFound } from '../../errdefs/errors';
import type { Options as RuncOptions } from '../../api/gen/containerd/runc/v1/Options';
import * as sys from '../../sys/fs';

export const TASK_DIR = 'io.containerd.runtime.v2.task';

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

function checkName(kind: string, value: string): void {
  if (!SAFE_NAME.test(value) || value.includes('..')) {
    throw invalidArgument(`${kind} ${JSON.stringify(value)} is not a valid name (letters, digits, '_', '.', '-'; at most 128)`);
  }
}

/** <stateDir>/io.containerd.runtime.v2.task of the last stateDir asked (a runtime has one). */
let tasksDir: { stateDir: string; path: string } | undefined;

export function bundlePath(stateDir: string, namespace: string, id: string): string {
  checkName('namespace', namespace);
  checkName('task id', id);
  if (tasksDir?.stateDir !== stateDir) tasksDir = { stateDir, path: join(stateDir, TASK_DIR) };
  // Both names are single safe components: appended as join would, without normalizing the whole
  // path again (path.join is ~10-50 us a call while cold, and recovery asks for every task's).
  return `${tasksDir.path}/${namespace}/${id}`;
}

/** Peels every mount off `path` (internal/mount); a busy one is finally detached lazily. */
export function unmountRootfs(path: string): void {
  try {
    unmountAll(path);
  } catch (err) {
    try {
      unmountAll(path, sys.MNT_DETACH);
    } catch {
      throw failedPrecondition(`unmount ${path}: ${messageOf(err)}`, err);
    }
  }
}

export class Bundle {
  /**
   * What the runc shim writes beside config.json at Create and its `delete` subcommand reads back
   * (`runtime`: runc's binary name; `options.json`: the runc options, its root among them); written
   * again into a directory made again, or that `delete` would fail before its `runc delete`.
   */
  private shimFiles = { runtime: '', options: '{}' };

  private constructor(
    readonly stateDir: string,
    readonly namespace: string,
    readonly id: string,
    readonly path: string,
  ) {}

  /**
   * Writes a new bundle; AlreadyExists if the directory is there. Undoes itself on failure. Off the
   * event loop (the thread pool): on a busy disk one mkdir can wait ~10 ms for the journal, and
   * berthd's other calls with it (issue 16).
   */
  static async create(stateDir: string, namespace: string, id: string, spec: object): Promise<Bundle> {
    const path = bundlePath(stateDir, namespace, id);
    await mkdir(join(stateDir, TASK_DIR, namespace), { recursive: true, mode: 0o711 });
    try {
      await mkdir(path, { mode: 0o700 });
    } catch (err) {
      if (sys.errnoCode(err) === 'EEXIST') throw alreadyExists(`bundle for task ${namespace}/${id} already exists at ${path}`);
      throw err;
    }
    const bundle = new Bundle(stateDir, namespace, id, path);
    try {
      await writeFile(join(path, 'config.json'), JSON.stringify(spec), { mode: 0o600 });
      await mkdir(join(path, 'rootfs'), { mode: 0o711 });
      return bundle;
    } catch (err) {
      bundle.remove();
      throw err;
    }
  }

  /** An existing bundle (for restart recovery); NotFound when it is missing. */
  static load(stateDir: string, namespace: string, id: string): Bundle {
    const path = bundlePath(stateDir, namespace, id);
    if (!existsSync(`${path}/config.json`)) throw notFound(`bundle for task ${namespace}/${id} not found at ${path}`);
    return new Bundle(stateDir, namespace, id, path);
  }

  /**
   * The bundle of a task that runs although someone removed its directory (a /run cleaner, an
   * operator's rm), made again from the spec its record holds (a pre-start hook's rewrite of it is
   * not recorded), so that its shim can be reached and runc can run in it again (restart
   * recovery; Bundle.load said NotFound).
   */
  static async restore(stateDir: string, namespace: string, id: string, spec: object, runcOptions?: RuncOptions): Promise<Bundle> {
    const path = bundlePath(stateDir, namespace, id);
    const bundle = new Bundle(stateDir, namespace, id, path);
    bundle.setRuncOptions(runcOptions);
    const made = bundle.restoreDirectory();
    try {
      await writeFile(join(path, 'config.json'), JSON.stringify(spec), { mode: 0o600 });
    } catch (err) {
      if (made) bundle.remove();
      throw err;
    }
    return bundle;
  }

  /**
   * Makes the directory (and rootfs/) again if someone removed it while its task runs; true when it
   * did. The shim runs runc with --log <bundle>/log.json, so without it runc cannot kill, exec in or
   * delete the container: the task could never be stopped (containerd 1.6 is stuck so).
   */
  restoreDirectory(): boolean {
    if (existsSync(this.path)) return false;
    mkdirSync(join(this.stateDir, TASK_DIR, this.namespace), { recursive: true, mode: 0o711 });
    mkdirSync(this.path, { mode: 0o700 });
    try {
      mkdirSync(this.rootfs, { mode: 0o711 });
      writeFileSync(join(this.path, 'runtime'), this.shimFiles.runtime, { mode: 0o600 });
      writeFileSync(join(this.path, 'options.json'), this.shimFiles.options, { mode: 0o600 });
    } catch (err) {
      // Half made (a full state dir), it would pass for whole at the next request: gone again.
      rmSync(this.path, { recursive: true, force: true });
      throw err;
    }
    return true;
  }

  /** The runc options the task's shim was given, as the shim records them (Go's JSON: unset fields left out). */
  setRuncOptions(options: RuncOptions | undefined): void {
    const set = Object.entries(options ?? {}).filter(([, v]) => v !== undefined && v !== '' && v !== false && v !== 0);
    this.shimFiles = { runtime: options?.binary_name ?? '', options: JSON.stringify(Object.fromEntries(set)) };
  }

  /** Every bundle under stateDir, as [namespace, id] pairs. */
  static list(stateDir: string): Array<{ namespace: string; id: string }> {
    const root = join(stateDir, TASK_DIR);
    if (!existsSync(root)) return [];
    return readdirSync(root).flatMap((namespace) =>
      readdirSync(join(root, namespace)).map((id) => ({ namespace, id })),
    );
  }

  // A bundle's path is bundlePath()'s, already normal: its files are appended to it as they are.
  get rootfs(): string {
    return `${this.path}/rootfs`;
  }

  get logPath(): string {
    return `${this.path}/log`;
  }

  /** Records the address of the shim serving this task, as the shim's `start` would. */
  writeAddress(address: string): void {
    writeFileSync(join(this.path, 'address'), address, { mode: 0o600 });
  }

  /** The shim's ttRPC address the shim wrote at start, if any. */
  readAddress(): string | undefined {
    return addressIn(this.path);
  }

  /** The shim address of another task in the same namespace (its bundle is beside this one). */
  siblingAddress(id: string): string | undefined {
    return addressIn(join(this.path, '..', id));
  }

  readSpec(): Record<string, unknown> {
    return JSON.parse(readFileSync(join(this.path, 'config.json'), 'utf8')) as Record<string, unknown>;
  }

  /**
   * Unmounts rootfs if the shim left it mounted, then deletes the bundle. The rootfs directory is
   * removed with rmdir, never recursively, so a mount we failed to see can never lose data.
   */
  remove(): void {
    if (!existsSync(this.path)) return;
    unmountRootfs(this.rootfs);
    try {
      rmdirSync(this.rootfs);
    } catch (err) {
      const code = sys.errnoCode(err);
      if (code !== 'ENOENT') throw failedPrecondition(`remove bundle ${this.path}: rootfs: ${messageOf(err)}`, err);
    }
    rmSync(this.path, { recursive: true, force: true });
  }
}

function addressIn(bundlePath: string): string | undefined {
  try {
    return readFileSync(`${bundlePath}/address`, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
