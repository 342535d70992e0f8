// The events socket shims publish task events to: whoever can connect can forge exits and OOM
// kills, so its file is 0600 whatever umask berthd runs under, and listening leaves the umask as it was.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codec, packAny } from '../../../internal/api/containerd';
import { EventBus } from '../../../internal/events/bus';
import { EVENTS_SERVICE, EventsServer } from '../../../internal/events/server';
import type { TaskEvent } from '../../../internal/events/types';
import { TtrpcClient } from '../../../internal/ttrpc/client';

const forward = codec<object, unknown>('containerd.services.events.ttrpc.v1.ForwardRequest');

let dir: string;
let savedUmask: number;

/** process.umask() without an argument is deprecated (DEP0139): read it by setting it back. */
function currentUmask(): number {
  const mask = process.umask(0);
  process.umask(mask);
  return mask;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'berth-events-mode-'));
  savedUmask = process.umask(0);
});

afterEach(() => {
  process.umask(savedUmask);
  rmSync(dir, { recursive: true, force: true });
});

it('creates the events socket 0600 under umask 0, replacing a stale file, and still serves', async () => {
  const path = join(dir, 'berth.sock.ttrpc');
  writeFileSync(path, 'left by a killed berthd');
  const bus = new EventBus();
  const server = new EventsServer(bus);
  await server.listen(path);
  try {
    const st = statSync(path);
    expect(st.isSocket()).toBe(true);
    expect((st.mode & 0o777).toString(8)).toBe('600');
    expect(currentUmask()).toBe(0);

    const seen: TaskEvent[] = [];
    bus.subscribe({ containerId: 'c1' }, (e) => seen.push(e));
    const client = await TtrpcClient.connect(path);
    try {
      const event = packAny('containerd.events.TaskExit', { container_id: 'c1', id: 'c1', pid: 10, exit_status: 7 });
      await client.call(EVENTS_SERVICE, 'Forward', forward.encode({ envelope: { namespace: 'k8s.io', topic: '/tasks/exit', event } }));
    } finally {
      client.close();
    }
    expect(seen.map((e) => e.kind)).toEqual(['TaskExit']);
  } finally {
    await server.close();
  }
});

it('leaves the umask as it was when listening fails', async () => {
  const server = new EventsServer(new EventBus());
  await expect(server.listen(join(dir, 'no-such-dir', 'events.sock'))).rejects.toThrow();
  expect(currentUmask()).toBe(0);
});
