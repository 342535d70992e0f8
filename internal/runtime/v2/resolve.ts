// Runtime name → shim binary, as Runtime v2 specifies: an absolute path is used as is; a URI-like
// name "io.containerd.runc.v2" becomes "containerd-shim-runc-v2" (last two dot-separated parts),
// looked up on PATH.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve as resolvePath } from 'node:path';
import { invalidArgument, notFound } from '../../errdefs/errors';

/** The shim binary name for a URI-like runtime name, or undefined if the name has no two parts. */
export function shimBinaryName(runtime: string): string | undefined {
  const parts = runtime.split('.');
  if (parts.length < 2 || parts[0] === '' || parts.some((p) => p === '' || p.includes('/'))) return undefined;
  return `containerd-shim-${parts[parts.length - 2]}-${parts[parts.length - 1]}`;
}

function isExecutableFile(path: string): boolean {
  try {
    // No exception for the common miss (a PATH directory without the binary): building one costs
    // more than the stat itself, and every task creation searches PATH.
    if (statSync(path, { throwIfNoEntry: false })?.isFile() !== true) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The absolute path of the executable file `name` in the first directory of `searchPath` that has
 * one (as exec(3)'s PATH search); `name` with a slash is that path itself.
 */
export function findExecutable(name: string, searchPath = process.env.PATH ?? ''): string | undefined {
  // Absolute either way: the shim runs with the bundle as its working directory.
  if (name.includes('/')) return isExecutableFile(name) ? resolvePath(name) : undefined;
  for (const dir of searchPath.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (isExecutableFile(candidate)) return resolvePath(candidate);
  }
  return undefined;
}

/** Resolves `runtime` to an executable path; throws NotFound naming the binary and the runtime. */
export function resolveShimBinary(runtime: string, searchPath = process.env.PATH ?? ''): string {
  if (isAbsolute(runtime)) {
    if (!isExecutableFile(runtime)) throw notFound(`runtime ${JSON.stringify(runtime)}: shim binary not installed or not executable`);
    return runtime;
  }
  const name = shimBinaryName(runtime);
  if (!name) {
    throw invalidArgument(
      `invalid runtime name ${JSON.stringify(runtime)}: use a name like io.containerd.runc.v2 or an absolute path to the shim`,
    );
  }
  const found = findExecutable(name, searchPath);
  if (found !== undefined) return found;
  throw notFound(`runtime ${JSON.stringify(runtime)}: binary ${JSON.stringify(name)} not installed (searched PATH)`);
}

/**
 * resolveShimBinary with the answer kept per runtime name and search path, as containerd's shim
 * manager keeps it (resolveRuntimePath): a kept path is used while it is still an executable file,
 * else looked up again.
 */
export class ShimBinaryResolver {
  private readonly resolved = new Map<string, string>();

  constructor(private readonly searchPath = process.env.PATH ?? '') {}

  resolve(runtime: string): string {
    const kept = this.resolved.get(runtime);
    if (kept !== undefined && isExecutableFile(kept)) return kept;
    const binary = resolveShimBinary(runtime, this.searchPath);
    this.resolved.set(runtime, binary);
    return binary;
  }
}
