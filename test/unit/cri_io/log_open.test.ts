// berthd writes a container's output as root into the pod's log directory, which whoever can mount
// it may fill with symlinks: none below the directory's parent is followed, whether planted for the
// pod's directory, for a container's directory in it, or for the file, at create and at reopen.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CriLogFile } from '../../../internal/cri/io/log_writer';
import { kindOf } from '../../../internal/errdefs/errors';

describe('opening a container log below the pod log directory', () => {
  let dir: string;
  let victim: string;
  let podLogDir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-log-open-'));
    victim = join(dir, 'victim-etc');
    mkdirSync(victim);
    podLogDir = join(dir, 'pods', 'default_web_uid');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const thrown = (fn: () => unknown): unknown => {
    try {
      fn();
    } catch (err) {
      return err;
    }
    throw new Error('expected a throw');
  };

  it('makes the missing directories (0755) and appends, through a symlink above the pod directory', () => {
    symlinkSync(join(dir, 'pods'), join(dir, 'pods-link'));
    mkdirSync(join(dir, 'pods'));
    const linked = join(dir, 'pods-link', 'default_web_uid');
    const file = new CriLogFile(join(linked, 'app', '0.log'), { logDirectory: linked });
    file.writeRecord('stdout', 'F', Buffer.from('hello'));
    file.close();
    expect(readFileSync(join(podLogDir, 'app', '0.log'), 'utf8')).toMatch(/ stdout F hello\n$/);
    expect(statSync(join(podLogDir, 'app')).mode & 0o777).toBe(0o755);
  });

  it('refuses a container directory that is a symlink', () => {
    mkdirSync(podLogDir, { recursive: true });
    symlinkSync(victim, join(podLogDir, 'app'));
    const err = thrown(() => new CriLogFile(join(podLogDir, 'app', '0.log'), { logDirectory: podLogDir }));
    expect(kindOf(err)).toBe('FailedPrecondition');
    expect((err as Error).message).toContain('"app" is not a directory (a symlink or another file)');
    expect(readdirSync(victim)).toEqual([]);
  });

  it('refuses a pod log directory that is a symlink', () => {
    mkdirSync(join(dir, 'pods'));
    symlinkSync(victim, podLogDir);
    const err = thrown(() => new CriLogFile(join(podLogDir, 'app', '0.log'), { logDirectory: podLogDir }));
    expect(kindOf(err)).toBe('FailedPrecondition');
    expect(readdirSync(victim)).toEqual([]);
  });

  it('refuses at reopen a directory swapped for a symlink after the rotation', () => {
    const path = join(podLogDir, 'app', '0.log');
    const file = new CriLogFile(path, { logDirectory: podLogDir });
    renameSync(join(podLogDir, 'app'), join(podLogDir, 'app.old'));
    symlinkSync(victim, join(podLogDir, 'app'));
    expect(kindOf(thrown(() => file.reopen()))).toBe('FailedPrecondition');
    file.writeRecord('stdout', 'F', Buffer.from('not there'));
    file.close();
    expect(readdirSync(victim)).toEqual([]);
    expect(existsSync(join(podLogDir, 'app.old', '0.log'))).toBe(true);
  });
});
