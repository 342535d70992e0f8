// Running berthctl as a user does: the compiled CLI (dist/cmd/berthctl/main.js, what bin/berthctl
// runs) as a child process, its stdout, stderr and exit code; on a terminal through script(1).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../../../internal/api/cri';

const execFileP = promisify(execFile);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export const berthctlMain = (): string => join(repoRoot(), 'dist', 'cmd', 'berthctl', 'main.js');

/** berthctl ARGS with stdin, stdout and stderr not on a terminal (a script's view). */
export async function cli(socket: string | undefined, ...args: string[]): Promise<CliResult> {
  const argv = socket === undefined ? args : ['--address', socket, ...args];
  try {
    const { stdout, stderr } = await execFileP(process.execPath, [berthctlMain(), ...argv], { maxBuffer: 64 << 20, timeout: 300_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number | string; stdout: string; stderr: string };
    if (typeof e.code !== 'number') throw err;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** berthctl ARGS on a pseudo-terminal (script(1) from util-linux): what a person at a shell sees. */
export async function cliOnTerminal(socket: string, ...args: string[]): Promise<CliResult> {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, berthctlMain(), '--address', socket, ...args].map(quote).join(' ');
  try {
    // -e: script exits with the command's code; output is everything the terminal showed.
    const { stdout } = await execFileP('script', ['-q', '-e', '-c', command, '/dev/null'], { maxBuffer: 64 << 20, timeout: 300_000 });
    return { code: 0, stdout, stderr: '' };
  } catch (err) {
    const e = err as { code: number | string; stdout: string; stderr: string };
    if (typeof e.code !== 'number') throw err;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The rows of a crictl-style table: each line split on runs of 2+ spaces (cells never hold two). */
export function tableRows(text: string): string[][] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.trim().split(/ {2,}/));
}
