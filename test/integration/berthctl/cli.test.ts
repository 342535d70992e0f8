// berthctl as a script meets it, without a daemon where none is needed: the help, usage errors
// (exit 2), an unreachable berthd (exit 3) and the bash completion script, run by a real bash.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cli } from './env';

jest.setTimeout(120_000);

const VERBS = ['images', 'pull', 'rmi', 'pods', 'inspectp', 'stopp', 'rmp', 'ps', 'inspect', 'logs', 'stop', 'rm', 'version', 'status', 'info', 'gc', 'du', 'completion'];

describe('berthctl command line', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'berthctl-cli-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('--help lists every verb and the exit codes, exit 0', async () => {
    const help = await cli(undefined, '--help');
    expect(help.code).toBe(0);
    for (const verb of VERBS) expect(help.stdout).toMatch(new RegExp(`^  ${verb}\\b`, 'm'));
    expect(help.stdout).toContain('Exit codes: 0 done, 1 the operation failed');
    const images = await cli(undefined, 'images', '--help');
    for (const sub of ['ls|list', 'pull', 'rm|rmi', 'import', 'export']) expect(images.stdout).toContain(`  ${sub} `);
  });

  it('a usage mistake exits 2 with one line naming it', async () => {
    expect(await cli(undefined, 'frobnicate')).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/^berthctl: unknown command 'frobnicate'/) });
    expect(await cli(undefined, 'logs')).toMatchObject({ code: 2, stderr: expect.stringContaining("missing required argument 'container'") });
    expect(await cli(undefined, 'ps', '--bogus')).toMatchObject({ code: 2, stderr: expect.stringContaining("unknown option '--bogus'") });
    expect(await cli(undefined, 'completion', 'tcsh')).toMatchObject({ code: 2, stderr: 'berthctl: completion: unsupported shell "tcsh": bash\n' });
  });

  it('an unreachable berthd exits 3, naming the socket', async () => {
    const socket = join(dir, 'none.sock');
    expect(await cli(socket, 'ps')).toEqual({
      code: 3,
      stdout: '',
      stderr: `berthctl: ps: cannot reach berthd at ${socket}: no socket there (is berthd running? see --address) (UNAVAILABLE)\n`,
    });
    // crictl's -r unix:// spelling names the same socket.
    expect((await cli(undefined, '-r', `unix://${socket}`, 'images')).stderr).toContain(`cannot reach berthd at ${socket}:`);
  });

  it('completion bash completes verbs, image subverbs and a verb\'s flags in bash', async () => {
    const script = await cli(undefined, 'completion', 'bash');
    expect(script.code).toBe(0);
    const file = join(dir, 'berthctl.bash');
    writeFileSync(file, script.stdout);
    // What bash offers for a command line typed so far (the last word being completed).
    const complete = async (...words: string[]) => {
      const line = ['berthctl', ...words];
      const program = `source ${file}; COMP_WORDS=(${line.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${line.length - 1}; _berthctl; printf '%s\\n' "\${COMPREPLY[@]}"`;
      const { stdout } = await promisify(execFile)('bash', ['-c', program]);
      return stdout.trim().split('\n').filter((w) => w !== '').sort();
    };
    expect(await complete('in')).toEqual(['info', 'inspect', 'inspectp']);
    expect(await complete('images', 'ex')).toEqual(['export']);
    expect(await complete('--address', '/run/x.sock', 'images', 'i')).toEqual(['import']);
    expect(await complete('logs', '--t')).toEqual(['--tail', '--timestamps']);
    expect(await complete('images', 'ls', '--d')).toEqual(['--digests']);
  });
});
