// The deadline each task Start carries to the shim. The shim runs `runc exec` under the request's
// context: a deadline passing mid-start kills runc after the process may have started, and that
// process then runs with a PID nobody knows (seen under an exit storm, where a shim took minutes).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codec } from '../../../internal/api/containerd';
import { TtrpcClient } from '../../../internal/ttrpc/client';
import { TtrpcServer } from '../../../internal/ttrpc/server';
import { TASK_SERVICE, TaskClient } from '../../../internal/runtime/v2/task_client';

const startRequest = codec<unknown, { id: string; exec_id: string }>('containerd.task.v2.StartRequest');
const startResponse = codec<{ pid: number }, unknown>('containerd.task.v2.StartResponse');

describe('task Start deadlines', () => {
  let dir: string;
  let server: TtrpcServer;
  let client: TtrpcClient;
  const seen: Array<{ execId: string; timeoutNano: bigint }> = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-start-deadline-'));
    server = new TtrpcServer();
    server.register(TASK_SERVICE, {
      Start: (payload, ctx) => {
        seen.push({ execId: startRequest.decode(payload).exec_id, timeoutNano: ctx.timeoutNano });
        return Buffer.from(startResponse.encode({ pid: 42 }));
      },
    });
    await server.listen(join(dir, 'shim.sock'));
    client = await TtrpcClient.connect(`unix://${join(dir, 'shim.sock')}`);
  });

  afterAll(async () => {
    client.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an exec Start carries no deadline; the init process Start keeps one', async () => {
    const tasks = new TaskClient(client);
    expect((await tasks.start({ id: 'c1', exec_id: 'e1' })).pid).toBe(42);
    await tasks.start({ id: 'c1' });
    expect(seen[0]).toEqual({ execId: 'e1', timeoutNano: 0n });
    expect(seen[1]!.execId).toBe('');
    expect(seen[1]!.timeoutNano).toBeGreaterThan(0n);
  });
});
