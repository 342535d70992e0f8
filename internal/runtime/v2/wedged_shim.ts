// A shim that took the connection but answered nothing within its bound is wedged (stopped,
// deadlocked). Once `delete` has cleaned its task up without it, nothing is left for it to serve,
// so it is ended: otherwise it could come back later and hold its socket and a deleted bundle
// forever. It is found by the flags its daemon runs with (namespace, berth's address and the
// task's ID: the pod's shim carries its sandbox's), so no other process is ever hit.
import { procFile, processIds } from '../../sys/procfs';

export interface ShimIdentity {
  namespace: string;
  id: string;
  /** berth's own API address, which every shim it starts is given. */
  address: string;
}

/** The `-flag value` pairs of a command line, and whether it ends with a subcommand (start, delete). */
function flagsOf(argv: readonly string[]): { flags: Map<string, string>; subcommand: boolean } {
  const flags = new Map<string, string>();
  let subcommand = false;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-debug') continue; // the one flag without a value
    if (!arg.startsWith('-')) subcommand = true;
    else if (i + 1 < argv.length && !argv[i + 1]!.startsWith('-')) flags.set(arg, argv[++i]!);
  }
  return { flags, subcommand };
}

/** SIGKILLs the running shim daemon started for `shim`; true when there was one. */
export function killWedgedShim(shim: ShimIdentity): boolean {
  let killed = false;
  for (const pid of processIds()) {
    const cmdline = procFile(pid, 'cmdline');
    if (cmdline === undefined) continue; // gone
    const argv = cmdline.replace(/\0$/, '').split('\0');
    if (!argv[0]?.includes('containerd-shim')) continue;
    const { flags, subcommand } = flagsOf(argv);
    if (subcommand || flags.get('-namespace') !== shim.namespace || flags.get('-id') !== shim.id || flags.get('-address') !== shim.address) continue;
    try {
      process.kill(pid, 'SIGKILL');
      killed = true;
    } catch {
      // gone meanwhile
    }
  }
  return killed;
}
