// Attach to real containers through berthd over SPDY v4 and WebSocket v5: input reaches the
// container's own stdin, its output comes back, stdin_once closes stdin with the first attach.
import { status as GrpcStatus } from '@grpc/grpc-js';
import { readFileSync } from 'node:fs';
import type { AttachRequest } from '../../../internal/api/gen/runtime/v1/AttachRequest';
import type { PodSandboxConfig } from '../../../internal/api/gen/runtime/v1/PodSandboxConfig';
import { callError } from '../../harness/cri_client';
import type { Transport } from '../../harness/streaming_client';
import { startContainerSuite, type ContainerSuite } from '../cri_containers/env';
import { closeSuiteCleanly } from './clean_host';
import { openInteractive } from './interactive';

jest.setTimeout(180_000);

const transports: Transport[] = ['spdy', 'websocket'];
const SUCCESS = JSON.stringify({ metadata: {}, status: 'Success' });

describe('attach to a real container', () => {
  let s: ContainerSuite;
  let podId: string;
  let pod: PodSandboxConfig;

  beforeAll(async () => {
    s = await startContainerSuite();
    ({ podId, config: pod } = await s.runPod('attach'));
  });

  afterAll(async () => {
    await closeSuiteCleanly(s);
  });

  const attachUrl = async (req: Partial<AttachRequest> & { container_id: string }) =>
    (await s.client.runtime.Attach({ stdin: true, stdout: true, stderr: !req.tty, ...req })).url;

  const started = async (name: string, command: string[], extra: { tty?: boolean; stdin_once?: boolean }) => {
    const id = await s.create(podId, pod, name, command, { stdin: true, ...extra });
    await s.client.runtime.StartContainer({ container_id: id });
    return id;
  };

  describe.each(transports)('over %s', (transport) => {
    it('echoes input through cat and, with stdin_once, ends the container when stdin closes', async () => {
      const id = await started(`once-${transport}`, ['cat'], { stdin_once: true });
      const session = await openInteractive(await attachUrl({ container_id: id }), { transport, tty: false });
      try {
        session.write('hello\n');
        expect(await session.waitForStdout(/hello\n/)).toBe('hello\n');
        session.closeStdin();
        expect(await session.ended).toBe(SUCCESS);
      } finally {
        session.close();
      }
      const exited = await s.waitState(id, 'CONTAINER_EXITED');
      expect(exited).toMatchObject({ exit_code: 0, reason: 'Completed' });
      // What went through attach is in the container's log too.
      expect(readFileSync(exited.log_path, 'utf8')).toMatch(/ stdout F hello\n$/);
    });

    it('ends the session when the client closes stdin (a detach), leaving the container running for the next attach', async () => {
      const id = await started(`multi-${transport}`, ['cat'], {});
      const first = await openInteractive(await attachUrl({ container_id: id }), { transport, tty: false });
      try {
        first.write('first\n');
        await first.waitForStdout(/first\n/);
        first.closeStdin(); // not stdin_once: the container's stdin stays open
        expect(await first.ended).toBe(SUCCESS);
      } finally {
        first.close();
      }
      const second = await openInteractive(await attachUrl({ container_id: id }), { transport, tty: false });
      try {
        second.write('second\n');
        expect(await second.waitForStdout(/second\n/)).toBe('second\n');
      } finally {
        second.close();
      }
      expect((await s.status(id)).state).toBe('CONTAINER_RUNNING');
    });

    it('attaches to a tty shell: commands run, resize reaches the terminal, detach leaves it, exit ends it', async () => {
      const id = await started(`tty-${transport}`, ['sh'], { tty: true });
      const session = await openInteractive(await attachUrl({ container_id: id, tty: true }), { transport, tty: true });
      try {
        session.write('echo hi-$((1+2))\n');
        await session.waitForStdout(/hi-3\r\n/);
        session.resize(90, 30);
        session.write('until [ "$(stty size 2>/dev/null)" = "30 90" ]; do sleep 0.05; done; echo "tty $(stty size)"\n');
        await session.waitForStdout(/tty 30 90\r\n/);
        // Detach (what the ctrl-p ctrl-q escape does in crictl/kubectl): the shell lives on.
        session.closeStdin();
        expect(await session.ended).toBe(SUCCESS);
      } finally {
        session.close();
      }
      expect((await s.status(id)).state).toBe('CONTAINER_RUNNING');
      const again = await openInteractive(await attachUrl({ container_id: id, tty: true }), { transport, tty: true });
      try {
        again.write('exit 4\n');
        await again.ended;
        expect(again.stderr()).toBe('');
      } finally {
        again.close();
      }
      expect(await s.waitState(id, 'CONTAINER_EXITED')).toMatchObject({ exit_code: 4, reason: 'Error' });
    });
  });

  it('streams the output of a container created without stdin even when the client offers stdin, as containerd', async () => {
    const id = await s.create(podId, pod, 'ticker', ['sh', '-c', 'while :; do echo tick; sleep 0.2; done']);
    await s.client.runtime.StartContainer({ container_id: id });
    const session = await openInteractive(await attachUrl({ container_id: id }), { transport: 'spdy', tty: false });
    try {
      session.write('ignored\n');
      await session.waitForStdout(/tick\n/);
    } finally {
      session.close();
    }
    expect((await s.status(id)).state).toBe('CONTAINER_RUNNING');
  });

  it('refuses Attach to a container that is not running with FAILED_PRECONDITION', async () => {
    const id = await s.create(podId, pod, 'not-started', ['cat'], { stdin: true });
    const err = await callError(s.client.runtime.Attach({ container_id: id, stdin: true, stdout: true }));
    expect(err.code).toBe(GrpcStatus.FAILED_PRECONDITION);
    expect(err.details).toContain(id);
  });
});
