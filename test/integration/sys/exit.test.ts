// exitNow (internal/sys/src/exit.c): the process ends with the code given, at once, without Node's
// exit handlers, and with what it wrote to stderr before intact.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../../../internal/api/cri';

describe('exitNow', () => {
  it('ends the process with its code, after what was written, before any exit handler', () => {
    const exitModule = join(repoRoot(), 'dist', 'internal', 'sys', 'exit.js');
    const script = `
      process.on('exit', () => process.stderr.write('exit handler ran\\n'));
      process.stderr.write('written before\\n');
      require(${JSON.stringify(exitModule)}).exitNow(3);
      process.stderr.write('still running\\n');`;
    const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect({ status: run.status, signal: run.signal, stderr: run.stderr }).toEqual({ status: 3, signal: null, stderr: 'written before\n' });
  });

  it('refuses a code that is not a number', () => {
    const exitModule = join(repoRoot(), 'dist', 'internal', 'sys', 'exit.js');
    const run = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(exitModule)}).exitNow('0')`], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('exitNow(code): code must be a number');
  });
});
