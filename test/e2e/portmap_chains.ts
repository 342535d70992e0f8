// The CNI portmap plugin (hostPort, check c1) removes its per-pod rules on DEL but leaves its
// shared chains in the host's nat table. After the run, those chains are removed again if the run
// made them (absent before) and no pod rule is left in them (nobody else is using them).
import { execFileSync } from 'node:child_process';

const CHAINS = ['CNI-HOSTPORT-DNAT', 'CNI-HOSTPORT-MASQ', 'CNI-HOSTPORT-SETMARK'];
/** The jumps portmap adds from the built-in chains to its own. */
const JUMPS: [string, string][] = [
  ['PREROUTING', 'CNI-HOSTPORT-DNAT'],
  ['OUTPUT', 'CNI-HOSTPORT-DNAT'],
  ['POSTROUTING', 'CNI-HOSTPORT-MASQ'],
];

const natRules = (): string[] => execFileSync('iptables', ['-w', '-t', 'nat', '-S'], { encoding: 'utf8' }).split('\n').filter((l) => l !== '');

/** The portmap chains present now. */
export function portmapChains(): Set<string> {
  return new Set(natRules().filter((l) => l.startsWith('-N ')).map((l) => l.slice(3)).filter((c) => CHAINS.includes(c)));
}

/** Removes the chains not in `before` when no per-pod rule (a jump to a CNI-DN-*) is left in them. */
export function removePortmapChains(before: Set<string>): void {
  const made = [...portmapChains()].filter((c) => !before.has(c));
  if (made.length === 0) return;
  const rules = natRules();
  const inUse = rules.some((l) => / -j CNI-DN-/.test(l));
  if (inUse) throw new Error(`kept iptables nat chains ${made.join(', ')}: pod rules still in them`);
  for (const [from, to] of JUMPS) {
    if (!made.includes(to)) continue;
    for (const rule of rules.filter((l) => l.startsWith(`-A ${from} `) && l.endsWith(`-j ${to}`))) {
      const args = rule.slice(3).match(/"[^"]*"|\S+/g)!.map((a) => a.replace(/^"(.*)"$/, '$1'));
      execFileSync('iptables', ['-w', '-t', 'nat', '-D', ...args]);
    }
  }
  for (const chain of made) execFileSync('iptables', ['-w', '-t', 'nat', '-F', chain]);
  for (const chain of made) execFileSync('iptables', ['-w', '-t', 'nat', '-X', chain]);
}
