// The events endpoint: a ttRPC client sends Forward requests the way the shim's publisher does;
// the bus must deliver typed events in order and skip unknown types.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codec, packAny } from '../../../internal/api/containerd';
import { EventBus } from '../../../internal/events/bus';
import { EVENTS_SERVICE, EventsServer } from '../../../internal/events/server';
import type { TaskEvent } from '../../../internal/events/types';
import { TtrpcClient } from '../../../internal/ttrpc/client';

const forward = codec<object, unknown>('containerd.services.events.ttrpc.v1.ForwardRequest');

/** `typeUrl` defaults to the bare type name; pass another to test prefixes and unknown types. */
function envelope(topic: string, type: string, event: object, namespace = 'ns1', typeUrl = type): Buffer {
  const any = type ? { ...packAny(type, event), type_url: typeUrl } : { type_url: typeUrl, value: Buffer.alloc(0) };
  return forward.encode({ envelope: { timestamp: { seconds: '1700000000', nanos: 5_000_000 }, namespace, topic, event: any } });
}

let dir: string;
let server: EventsServer;
let client: TtrpcClient;
let bus: EventBus;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'berth-events-'));
  bus = new EventBus();
  server = new EventsServer(bus);
  await server.listen(join(dir, 'events.sock'));
  client = await TtrpcClient.connect(join(dir, 'events.sock'));
});

afterEach(async () => {
  client.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

it('decodes forwarded task events and delivers them in order to matching subscribers', async () => {
  const seen: TaskEvent[] = [];
  const otherNs: TaskEvent[] = [];
  bus.subscribe({ namespace: 'ns1', containerId: 'c1' }, (e) => seen.push(e));
  bus.subscribe({ namespace: 'ns2' }, (e) => otherNs.push(e));
  const sends = [
    envelope('/tasks/create', 'containerd.events.TaskCreate', { container_id: 'c1', bundle: '/b', pid: 10 }),
    envelope('/tasks/start', 'containerd.events.TaskStart', { container_id: 'c1', pid: 10 }),
    envelope('/tasks/exit', 'containerd.events.TaskExit', { container_id: 'c1', id: 'c1', pid: 10, exit_status: 3 }),
    envelope('/tasks/exit', 'containerd.events.TaskExit', { container_id: 'c2', id: 'c2', pid: 11, exit_status: 0 }),
    envelope('/something', '', {}, 'ns1', 'containerd.events.NotAThing'), // unknown: acknowledged, not published
    envelope('/tasks/delete', 'containerd.events.TaskDelete', { container_id: 'c1', pid: 10, exit_status: 3 }, 'ns1', 'type.googleapis.com/containerd.events.TaskDelete'),
    envelope('/tasks/oom', 'containerd.events.TaskOOM', { container_id: 'c9' }, 'ns2'),
  ];
  // Fired without awaiting each one, like the shim's publisher queue.
  await Promise.all(sends.map((p) => client.call(EVENTS_SERVICE, 'Forward', p)));
  expect(seen.map((e) => [e.kind, e.topic])).toEqual([
    ['TaskCreate', '/tasks/create'],
    ['TaskStart', '/tasks/start'],
    ['TaskExit', '/tasks/exit'],
    ['TaskDelete', '/tasks/delete'],
  ]);
  const exit = seen[2];
  expect(exit.kind === 'TaskExit' && exit.event.exit_status).toBe(3);
  expect(exit.timestamp.getTime()).toBe(1700000000005);
  expect(otherNs.map((e) => [e.kind, e.containerId])).toEqual([['TaskOOM', 'c9']]);
});

it('answers InvalidArgument to a Forward without an envelope, and keeps serving', async () => {
  await expect(client.call(EVENTS_SERVICE, 'Forward', Buffer.alloc(0))).rejects.toMatchObject({ kind: 'InvalidArgument' });
  const stream = bus.stream({ kinds: ['TaskStart'] });
  await client.call(EVENTS_SERVICE, 'Forward', envelope('/tasks/start', 'containerd.events.TaskStart', { container_id: 'x', pid: 1 }));
  expect((await stream.next()).containerId).toBe('x');
  stream.close();
});
