// Recovery serves nothing stale about a pod whose pause exited while berthd was down: when the
// reconnect finds the sandbox task already exited, recover() resolves only after the exit is
// recorded (NotReady, its status and time), as containerd's loadSandbox does. The fake task's
// exit comes only when the test hands it over, so a recovery that does not wait for it returns first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyFlags, defaultConfig } from '../../../internal/config';
import { silentLogger } from '../../../internal/log/logger';
import { recover } from '../../../internal/cri/server/recover';
import type { CriService } from '../../../internal/cri/server/service';
import type { Sandbox, SandboxStatus } from '../../../internal/cri/store/sandbox';
import type { CriTask, TaskExit } from '../../../internal/cri/tasks/types';

const EXITED_AT = new Date('2026-12-01T10:00:00Z');

function fakeService(dir: string, exitedBeforeReconnect: boolean) {
  const config = applyFlags(defaultConfig(), { root: join(dir, 'root'), state: join(dir, 'state') });
  const sandbox = {
    id: 'pod1',
    name: 'pod1',
    metadata: { id: 'pod1', runtimeHandler: '', netnsPath: '' },
    status: { state: 'ready', pid: 1, createdAt: '1', exitStatus: 0, exitedAt: '0' },
    removing: false,
  } as unknown as Sandbox;
  const published: string[] = [];
  let exit: (e: TaskExit) => void = () => undefined;
  const exited = new Promise<TaskExit>((resolve) => (exit = resolve));
  const task = { id: 'pod1', pid: 1, exited, exitedBeforeReconnect } as unknown as CriTask;
  const rt = {
    sandboxes: {
      list: () => [sandbox],
      tryGet: (id: string) => (id === sandbox.id ? sandbox : undefined),
      updateStatus: (_id: string, fn: (s: SandboxStatus) => SandboxStatus) => (sandbox.status = fn(sandbox.status)),
    },
    containers: { list: () => [], tryGet: () => undefined },
    tasks: { reconnect: async () => task, bundlesOnDisk: () => [] },
    snapshotter: { walk: async () => undefined },
    cni: { cachedPodsExcept: () => [] },
    trash: { root: { discard: () => undefined }, state: { discard: () => undefined } },
    events: { publish: (e: { type: string }) => void published.push(e.type) },
  };
  const svc = { config, logger: silentLogger, rt } as unknown as CriService;
  return { svc, sandbox, published, exit };
}

describe('recovery of a sandbox task', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-recover-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('found exited: returns only once the pod is recorded NotReady with the exit', async () => {
    const { svc, sandbox, published, exit } = fakeService(dir, true);
    let returned = false;
    const recovering = recover(svc, () => undefined).then(() => void (returned = true));
    // Everything else recovery does here is done within a few turns of the event loop.
    for (let turn = 0; turn < 20; turn++) await new Promise((r) => setImmediate(r));
    expect(returned).toBe(false);
    expect(sandbox.status.state).toBe('ready');
    exit({ exitStatus: 137, exitedAt: EXITED_AT });
    await recovering;
    expect(sandbox.status).toMatchObject({ state: 'notready', exitStatus: 137 });
    expect(sandbox.status.exitedAt).toBe(`${EXITED_AT.getTime()}000000`);
    expect(published).toEqual(['CONTAINER_STOPPED_EVENT']);
  });

  it('found running: returns without waiting for an exit, the pod still Ready', async () => {
    const { svc, sandbox, published, exit } = fakeService(dir, false);
    await recover(svc, () => undefined);
    expect(sandbox.status.state).toBe('ready');
    expect(published).toEqual([]);
    exit({ exitStatus: 0, exitedAt: EXITED_AT });
  });
});
