// A CNI plugin still in its ADD when berthd is killed outlives it. The restart's recovery undoes
// the half-made pod (its DEL frees the IP); a plugin left to finish after that would install what
// nothing removes any more (a portmap DNAT rule to the freed IP sends a hostPort's traffic to
// whichever pod gets it next). Recovery ends such plugins, their process groups with them, first.
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createBerthEnv, deadline, type BerthEnv } from './berth_env';
import { leaks } from './host_state';
import { until } from './probes';

jest.setTimeout(180_000);

/** ADD: records its PID and its child's, then "installs" a marker after a long wait; DEL removes it. */
const PLUGIN = `#!/usr/bin/env node
const fs = require('node:fs');
const { spawn } = require('node:child_process');
const conf = JSON.parse(fs.readFileSync(0, 'utf8'));
const id = process.env.CNI_CONTAINERID;
const command = process.env.CNI_COMMAND;
if (command === 'VERSION') {
  process.stdout.write(JSON.stringify({ cniVersion: '1.0.0', supportedVersions: ['0.4.0', '1.0.0'] }));
} else if (command === 'ADD') {
  const child = spawn('sleep', ['600'], { stdio: 'ignore' });
  fs.writeFileSync(conf.markers + '/started-' + id, process.pid + ' ' + child.pid);
  setTimeout(() => {
    fs.writeFileSync(conf.markers + '/installed-' + id, '');
    child.kill();
    process.stdout.write(JSON.stringify(conf.prevResult));
  }, 60000);
} else {
  fs.rmSync(conf.markers + '/installed-' + id, { force: true });
}
`;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'latin1').includes(') Z ');
  } catch {
    return false;
  }
};

describe('a CNI plugin left running by a killed berthd', () => {
  let env: BerthEnv;
  let pids: number[] = [];
  afterAll(async () => {
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // ended, as it should be
      }
    }
    await env?.close();
  });

  it('is ended, child and all, before recovery detaches the pod, so it attaches nothing after', async () => {
    env = await createBerthEnv();
    const markers = join(env.dir, 'markers');
    mkdirSync(markers);
    env.cni.writePlugin('slowmark', PLUGIN);
    env.cni.writeConflist([{ type: 'slowmark', markers }]);
    await env.start();

    const run = env.client.runtime.RunPodSandbox({ config: env.podConfig('slow-add') }, deadline()).catch(() => undefined);
    const startedMarker = () => readdirSync(markers).find((n) => n.startsWith('started-'));
    await until('the plugin ADD to start', () => startedMarker() !== undefined);
    const started = startedMarker()!;
    const podId = started.slice('started-'.length);
    pids = readFileSync(join(markers, started), 'utf8').split(' ').map(Number);
    expect(env.cni.allocatedIPs()).toHaveLength(1);

    await env.daemon.kill();
    env.client.close();
    await run;
    expect(pids.every(alive)).toBe(true); // the plugin and its child outlived berthd
    await env.start();

    expect(pids.filter(alive)).toEqual([]);
    expect(env.daemon.stderr()).toContain('ended CNI plugins an earlier berthd left running for the pod');
    expect(existsSync(join(markers, `installed-${podId}`))).toBe(false);
    expect((await env.client.runtime.ListPodSandbox({})).items).toEqual([]);
    expect(env.cni.allocatedIPs()).toEqual([]);
    expect(leaks(env.host())).toEqual([]);
  });
});
