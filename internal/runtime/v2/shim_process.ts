// Invocations of the shim binary with the legacy (containerd ≤ 2.2) bootstrap: flags, a few
// environment variables and the runtime options Any on stdin. `start` prints the ttRPC address of
// a new (or the group's existing) shim; `delete` cleans up after a shim we can no longer reach.
import { codec, encodeAny } from '../../api/containerd';
import type { DeleteResponse, DeleteResponse__Output } from '../../api/gen/containerd/task/v2/DeleteResponse';
import type { Any__Output } from '../../api/gen/google/protobuf/Any';
import { clipText } from '../../errdefs/clip_text';
import { deadlineExceeded, internal, unimplemented } from '../../errdefs/errors';
import { daemonEnv, runProcess } from '../../sys/process';

export interface ShimInvocation {
  binary: string;
  /** containerd namespace of the task. */
  namespace: string;
  id: string;
  /** The bundle directory; also the working directory of every invocation. */
  bundle: string;
  /** berth's own API address; the shim hashes it (with namespace and group id) into its socket path. */
  address: string;
  /** Where the shim publishes events (our events ttRPC server). */
  ttrpcAddress: string;
  publishBinary: string;
  debug: boolean;
}

interface RunResult {
  stdout: Buffer;
  stderr: string;
}

const COMMAND_TIMEOUT_MS = 30_000;

function commandLine(inv: ShimInvocation, tail: string[]): string[] {
  const args = ['-namespace', inv.namespace, '-address', inv.address, '-publish-binary', inv.publishBinary, '-id', inv.id];
  if (inv.debug) args.push('-debug');
  return [...args, ...tail];
}

async function run(inv: ShimInvocation, tail: string[], stdin: Buffer): Promise<RunResult> {
  const what = `${inv.binary} ${tail[tail.length - 1]} (task ${inv.namespace}/${inv.id})`;
  const exit = await runProcess({
    file: inv.binary,
    args: commandLine(inv, tail),
    cwd: inv.bundle,
    env: {
      ...daemonEnv(),
      TTRPC_ADDRESS: inv.ttrpcAddress,
      GRPC_ADDRESS: inv.address,
      NAMESPACE: inv.namespace,
      MAX_SHIM_VERSION: '2',
    },
    stdin,
    timeoutMs: COMMAND_TIMEOUT_MS,
  }).catch((e: unknown) => {
    throw internal(`${what}: ${e instanceof Error ? e.message : String(e)}`, e);
  });
  // The Go shim's daemon child does not inherit our pipes, so `start` ends when it has printed.
  if (exit.timedOut) throw deadlineExceeded(`${what}: no answer within ${COMMAND_TIMEOUT_MS}ms`);
  const stderr = clipText(exit.stderr.toString('utf8').trim());
  if (exit.code !== 0) throw internal(`${what} failed (${exit.signal ?? `exit ${exit.code}`}): ${stderr || 'no output'}`);
  return { stdout: exit.stdout, stderr };
}

/** Longer than any path Linux takes (PATH_MAX), let alone a socket's (108 bytes): not an address. */
const MAX_ADDRESS_CHARS = 4096;

/** Parses `start` output: a bare address or {"version":2,"address":...,"protocol":"ttrpc"}. */
export function parseStartOutput(stdout: string): string {
  const text = stdout.trim();
  if (!text) throw internal('shim start printed no address');
  if (!text.startsWith('{')) {
    if (text.length > MAX_ADDRESS_CHARS) throw internal(`shim start printed ${text.length} characters, not an address: ${clipText(text, 200)}`);
    return text;
  }
  let params: { version?: number; address?: string; protocol?: string };
  try {
    params = JSON.parse(text) as typeof params;
  } catch (e) {
    throw internal(`shim start printed unparsable bootstrap params: ${clipText(text)}`, e);
  }
  if (params.version !== undefined && params.version !== 2) throw unimplemented(`shim bootstrap version ${params.version} is not supported`);
  if (params.protocol !== undefined && params.protocol !== 'ttrpc') throw unimplemented(`shim protocol ${params.protocol} is not supported (ttrpc only)`);
  if (typeof params.address !== 'string' || params.address === '') throw internal(`shim start printed no address: ${clipText(text)}`);
  if (params.address.length > MAX_ADDRESS_CHARS) throw internal(`shim start printed an address of ${params.address.length} characters: ${clipText(params.address, 200)}`);
  return params.address;
}

/** Runs `<shim> ... start`; returns the ttRPC address to connect to. */
export async function shimStart(inv: ShimInvocation, options?: Any__Output): Promise<string> {
  const { stdout } = await run(inv, ['start'], options ? encodeAny(options) : Buffer.alloc(0));
  return parseStartOutput(stdout.toString('utf8'));
}

const deleteResponse = codec<DeleteResponse, DeleteResponse__Output>('containerd.task.v2.DeleteResponse');

/** Runs `<shim> ... -bundle <path> delete`: runc delete --force and unmount of rootfs. */
export async function shimDelete(inv: ShimInvocation): Promise<DeleteResponse__Output> {
  const { stdout } = await run(inv, ['-bundle', inv.bundle, 'delete'], Buffer.alloc(0));
  return deleteResponse.decode(stdout);
}
