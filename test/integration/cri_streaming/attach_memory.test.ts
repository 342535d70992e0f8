// An attach session that ends before its container exits leaves nothing of itself in berthd. Each
// one used to stay reachable from the container's exit promise (its WebSocket or SPDY session,
// socket, timers: ~7 KiB) until the container exited, so a container attached to again and again
// over months grew berthd without bound. Counted in berthd's own heap, after a full GC.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PodSandboxConfig } from '../../../internal/api/gen/runtime/v1/PodSandboxConfig';
import { heapObjectCounts, heapSnapshotEnv } from '../../harness/heap_snapshot';
import type { Transport } from '../../harness/streaming_client';
import { startContainerSuite, type ContainerSuite } from '../cri_containers/env';
import { closeSuiteCleanly } from './clean_host';
import { openInteractive } from './interactive';

jest.setTimeout(300_000);

const SESSIONS = 30;
/** The server side of a session of each transport, as berthd names its class. */
const SESSION_CLASS: Record<Transport, string> = { websocket: 'WebSocketChannels', spdy: 'SpdySession' };

describe('attach sessions that end before their container', () => {
  let s: ContainerSuite;
  let podId: string;
  let pod: PodSandboxConfig;
  let snapshots: string;

  beforeAll(async () => {
    snapshots = mkdtempSync(join(tmpdir(), 'berth-heap-'));
    s = await startContainerSuite({ env: heapSnapshotEnv(snapshots) });
    ({ podId, config: pod } = await s.runPod('attach-memory'));
  });

  afterAll(async () => {
    await closeSuiteCleanly(s);
    rmSync(snapshots, { recursive: true, force: true });
  });

  it.each(['websocket', 'spdy'] as Transport[])('leave no %s session behind while the container runs', async (transport) => {
    const id = await s.create(podId, pod, `ticker-${transport}`, ['sh', '-c', 'while true; do echo tick; sleep 0.05; done']);
    await s.client.runtime.StartContainer({ container_id: id });
    for (let i = 0; i < SESSIONS; i++) {
      const url = (await s.client.runtime.Attach({ container_id: id, stdout: true, stderr: true })).url;
      const session = await openInteractive(url, { transport, tty: false, stdin: false });
      await session.waitForStdout(/tick/);
      session.close(); // the client leaves; the container goes on
    }
    // berthd sees each close a little later: counted until the sessions are gone (or it gives up).
    let left = SESSIONS;
    for (let tries = 0; tries < 20 && left > 0; tries++) {
      left = (await heapObjectCounts(s.daemon.pid, snapshots)).get(SESSION_CLASS[transport]) ?? 0;
    }
    expect(left).toBe(0);
    expect((await s.status(id)).state).toBe('CONTAINER_RUNNING');
  });
});
