// What a node admin sees with `ss -ltnp`: the TCP sockets a process listens on.
import { readFileSync } from 'node:fs';
import { fdTargets } from './proc_fds';

export interface Listener {
  address: string;
  port: number;
}

/** TCP sockets in LISTEN state owned by `pid` (its fds matched against /proc/<pid>/net/tcp{,6}). */
export function tcpListeners(pid: number): Listener[] {
  const inodes = new Set(fdTargets(pid).flatMap((target) => /^socket:\[(\d+)\]$/.exec(target)?.[1] ?? []));
  const out: Listener[] = [];
  for (const file of ['tcp', 'tcp6']) {
    for (const line of readFileSync(`/proc/${pid}/net/${file}`, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10 || cols[3] !== '0A' || !inodes.has(cols[9]!)) continue;
      const [hex, port] = cols[1]!.split(':') as [string, string];
      const address =
        hex.length === 8
          ? [...Buffer.from(hex, 'hex').reverse()].join('.')
          : hex === '00000000000000000000000000000000' ? '::' : hex === '00000000000000000000000001000000' ? '::1' : hex;
      out.push({ address, port: parseInt(port, 16) });
    }
  }
  return out;
}

/** The TCP ports `pid` listens on, each once, ascending. */
export function listeningTcpPorts(pid: number): number[] {
  return [...new Set(tcpListeners(pid).map((l) => l.port))].sort((a, b) => a - b);
}
