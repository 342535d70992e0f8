// Exec through a real berthd (shim, runc, overlay, CNI) over SPDY v4 and WebSocket v5: the
// Exec RPC hands out a URL and the client sees what crictl/kubectl users see.
import { status as GrpcStatus } from '@grpc/grpc-js';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ExecRequest } from '../../../internal/api/gen/runtime/v1/ExecRequest';
import type { PodSandboxConfig } from '../../../internal/api/gen/runtime/v1/PodSandboxConfig';
import { callError } from '../../harness/cri_client';
import { fdTargets } from '../../harness/proc_fds';
import { HttpError, streamExec, type Transport } from '../../harness/streaming_client';
import { tcpListeners } from '../../harness/tcp_listeners';
import { startContainerSuite, type ContainerSuite } from '../cri_containers/env';
import { closeSuiteCleanly } from './clean_host';
import { openInteractive } from './interactive';
import { until } from '../recovery/probes';

jest.setTimeout(180_000);

const SLEEPER = ['sh', '-c', 'trap "exit 0" TERM; sleep 3600 & wait'];
const transports: Transport[] = ['spdy', 'websocket'];

describe('exec into a real container', () => {
  let s: ContainerSuite;
  let id: string;
  let podId: string;
  let podConfig: PodSandboxConfig;

  beforeAll(async () => {
    s = await startContainerSuite();
    const pod = await s.runPod('exec');
    podId = pod.podId;
    podConfig = pod.config;
    id = await s.create(podId, pod.config, 'shell', SLEEPER);
    await s.client.runtime.StartContainer({ container_id: id });
  });

  afterAll(async () => {
    await closeSuiteCleanly(s);
  });

  const execUrl = async (req: Partial<ExecRequest>) =>
    (await s.client.runtime.Exec({ container_id: id, stdout: true, stderr: !req.tty, ...req })).url;

  // First in this file: no Exec has been asked of this berthd yet.
  it('listens for streams only from the first Exec (its port left to the kernel), then serves its URL', async () => {
    expect(tcpListeners(s.daemon.pid)).toEqual([]);
    const url = await execUrl({ cmd: ['echo', 'first'] });
    expect(tcpListeners(s.daemon.pid)).toEqual([{ address: '127.0.0.1', port: Number(new URL(url).port) }]);
    expect((await streamExec(url, { transport: 'spdy' })).stdout).toBe('first\n');
  });

  describe.each(transports)('over %s', (transport) => {
    it('returns stdout and stderr apart and reports exit code 3 as NonZeroExitCode', async () => {
      const cmd = ['sh', '-c', 'echo out; echo err >&2; exit 3'];
      const res = await streamExec(await execUrl({ cmd }), { transport });
      expect(res.stdout).toBe('out\n');
      expect(res.stderr).toBe('err\n');
      expect(res.status).toEqual({
        metadata: {},
        status: 'Failure',
        message: 'command terminated with non-zero exit code: error executing command [sh -c echo out; echo err >&2; exit 3], exit code 3',
        reason: 'NonZeroExitCode',
        details: { causes: [{ reason: 'ExitCode', message: '3' }] },
      });
    });

    it("words a command runc cannot start as containerd does: the shim's message, not berth's task and ttRPC names", async () => {
      const res = await streamExec(await execUrl({ cmd: ['/etc/passwd'] }), { transport });
      expect(res.status).toMatchObject({ status: 'Failure', reason: 'InternalError' });
      expect(res.status?.message).toMatch(
        /^Internal error occurred: error executing command in container: failed to exec in container: failed to start exec "[0-9a-f]{64}": OCI runtime exec failed: exec failed: unable to start container process: exec: "\/etc\/passwd": permission denied: unknown$/,
      );
    });

    it('runs an exec that asks for only some of the streams, output nobody asked for dropped, and the pod takes more execs after', async () => {
      // stdin alone: the command reads it to its end and writes a file.
      const file = `/tmp/stdin-only-${transport}`;
      const stdinOnly = await streamExec(await execUrl({ cmd: ['sh', '-c', `cat > ${file}; echo dropped`], stdin: true, stdout: false, stderr: false }), {
        transport,
        stdin: 'hello\n',
        stdout: false,
        stderr: false,
      });
      expect(stdinOnly.status).toEqual({ metadata: {}, status: 'Success' });
      const both = ['sh', '-c', 'echo out; echo err >&2'];
      const stdoutOnly = await streamExec(await execUrl({ cmd: both, stdout: true, stderr: false }), { transport, stderr: false });
      expect([stdoutOnly.stdout, stdoutOnly.status?.status]).toEqual(['out\n', 'Success']);
      const stderrOnly = await streamExec(await execUrl({ cmd: both, stdout: false, stderr: true }), { transport, stdout: false });
      expect([stderrOnly.stderr, stderrOnly.status?.status]).toEqual(['err\n', 'Success']);
      const read = await s.client.runtime.ExecSync({ container_id: id, cmd: ['cat', file], timeout: '10' });
      expect(read.stdout.toString()).toBe('hello\n');
    });

    it('ends the session once the command exits, with stdin the command never read still coming', async () => {
      // 4 MiB of stdin, more than a channel holds: the server stops reading the socket meanwhile.
      const session = streamExec(await execUrl({ cmd: ['sh', '-c', 'sleep 1; echo done'], stdin: true }), { transport, stdin: Buffer.alloc(4 << 20, 'i') });
      // A guard, not a measure: left paused, the client's closing frame would wait for ws's 30 s close timeout.
      const res = await Promise.race([session, new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), 20_000).unref())]);
      expect(res).toMatchObject({ stdout: 'done\n', status: { status: 'Success' } });
    });

    it('runs in the container, not on the host', async () => {
      const res = await streamExec(await execUrl({ cmd: ['hostname'] }), { transport });
      expect(res.stdout).toBe('exec\n'); // the pod's UTS namespace
      expect(res.status).toEqual({ metadata: {}, status: 'Success' });
    });

    it('feeds stdin to cat and ends it when the client closes stdin', async () => {
      const input = 'hello through the shim\n'.repeat(3000); // ~70 KB: several frames and FIFO buffers
      const res = await streamExec(await execUrl({ cmd: ['cat'], stdin: true }), { transport, stdin: input });
      expect(res.stdout).toBe(input);
      expect(res.status?.status).toBe('Success');
      // The session's FIFOs (stdin, stdout, stderr) went before its status was sent.
      expect(readdirSync(join(s.daemon.state, 'containers', id, 'exec'))).toEqual([]);
    });

    it('ends the session of a process that stops reading its stdin early', async () => {
      // head leaves after 5 bytes: the rest of the client's 512 KiB has no reader in the process any
      // more, and berthd's own idle reader of the FIFO must not keep the session waiting.
      const input = 'x'.repeat(512 * 1024); // 8 pipes' worth, in one WebSocket frame (1 MiB at most)
      const res = await streamExec(await execUrl({ cmd: ['head', '-c', '5'], stdin: true }), { transport, stdin: input });
      expect(res.stdout).toBe('xxxxx');
      expect(res.status?.status).toBe('Success');
    });

    it('streams output written after the exec process exited, until its last writer closes', async () => {
      // sh exits at once; its child keeps stdout and writes 3 s later. containerd removes an exec
      // process from its shim only once the output is drained: the shim's Delete closes the
      // output 2 s after it is asked, and what comes after that would be lost. The same holds for
      // output still in flight behind a slow client when the process exits.
      const cmd = ['sh', '-c', '(sleep 3; echo late) & echo early'];
      const res = await streamExec(await execUrl({ cmd }), { transport });
      expect(res.stdout).toBe('early\nlate\n');
      expect(res.status).toEqual({ metadata: {}, status: 'Success' });
    });

    it('gives a tty exec a /dev/pts terminal with stderr merged into stdout', async () => {
      const res = await streamExec(await execUrl({ cmd: ['sh', '-c', 'tty; echo to-err >&2'], tty: true }), { transport, tty: true });
      expect(res.stdout).toMatch(/^\/dev\/pts\/\d+\r\nto-err\r\n$/);
      expect(res.stderr).toBe('');
      expect(res.status?.status).toBe('Success');
    });

    it('delivers a resize to the exec terminal', async () => {
      // The shell waits until the terminal has the size the client sent, then prints it. Until the
      // first resize the window is 0x0, which stty reports as an error: hence 2>/dev/null.
      const cmd = ['sh', '-c', 'until [ "$(stty size 2>/dev/null)" = "40 100" ]; do sleep 0.05; done; echo "size $(stty size)"'];
      const res = await streamExec(await execUrl({ cmd, tty: true }), { transport, tty: true, resize: [{ width: 100, height: 40 }] });
      expect(res.stdout).toBe('size 40 100\r\n');
      expect(res.status?.status).toBe('Success');
    });

    it('runs an interactive tty shell: typed lines run, resize shows up, exit ends it', async () => {
      const session = await openInteractive(await execUrl({ cmd: ['sh'], tty: true, stdin: true }), { transport, tty: true });
      try {
        session.write('echo sum=$((40+2))\n');
        await session.waitForStdout(/sum=42\r\n/);
        session.resize(132, 43);
        session.write('until [ "$(stty size 2>/dev/null)" = "43 132" ]; do sleep 0.05; done; echo "rows cols: $(stty size)"\n');
        await session.waitForStdout(/rows cols: 43 132\r\n/);
        session.write('exit 5\n');
        const status = JSON.parse(await session.ended) as { reason?: string; details?: unknown };
        expect(status.reason).toBe('NonZeroExitCode');
        expect(status.details).toEqual({ causes: [{ reason: 'ExitCode', message: '5' }] });
      } finally {
        session.close();
      }
    });

    it('uses each URL once: a second connection is answered 404', async () => {
      const url = await execUrl({ cmd: ['true'] });
      expect((await streamExec(url, { transport })).status?.status).toBe('Success');
      const reused = await streamExec(url, { transport }).catch((err: unknown) => err);
      expect(reused).toBeInstanceOf(HttpError);
      expect((reused as HttpError).statusCode).toBe(404);
    });
  });

  it('kills the exec process when the client goes away', async () => {
    const url = await execUrl({ cmd: ['sh', '-c', 'echo started; exec sleep 3601'] });
    const session = await openInteractive(url, { transport: 'spdy', tty: false, stdin: false });
    await session.waitForStdout(/started\n/);
    const sleeping = async () =>
      (await s.client.runtime.ExecSync({ container_id: id, cmd: ['sh', '-c', 'ps -o args | grep -c "^sleep 3601$" || true'], timeout: '10' })).stdout.toString().trim();
    expect(await sleeping()).toBe('1');
    session.close();
    const giveUp = Date.now() + 30_000;
    let count = await sleeping();
    while (count !== '0' && Date.now() < giveUp) {
      await new Promise((r) => setTimeout(r, 100));
      count = await sleeping();
    }
    expect(count).toBe('0');
  });

  it('when the client goes away, what the exec left writing is cut off and its FIFOs closed', async () => {
    // `cat /dev/zero` inherits the exec's stdout and outlives its shell; containerd's copy to a client
    // that is gone stops and closes the FIFO, and cat dies of EPIPE instead of being read for ever.
    const fifosOf = () => fdTargets(s.daemon.pid).filter((target) => target.includes(`/${id}/`)).length;
    const before = fifosOf();
    const url = await execUrl({ cmd: ['sh', '-c', 'echo started; cat /dev/zero & exec sleep 3602'] });
    const session = await openInteractive(url, { transport: 'spdy', tty: false, stdin: false });
    await session.waitForStdout(/started\n/);
    const count = async (pattern: string) =>
      (await s.client.runtime.ExecSync({ container_id: id, cmd: ['sh', '-c', `ps -o args | grep -c "^${pattern}$" || true`], timeout: '10' })).stdout.toString().trim();
    expect(await count('cat /dev/zero')).toBe('1');
    session.close();
    await until('the exec and what it left to end', async () => (await count('cat /dev/zero')) === '0' && (await count('sleep 3602')) === '0');
    await until("berthd to close the exec's FIFOs", () => fifosOf() === before);
  });

  it('refuses Exec into a container that is not running with FAILED_PRECONDITION', async () => {
    const created = await s.create(podId, podConfig, 'idle', SLEEPER);
    const err = await callError(s.client.runtime.Exec({ container_id: created, cmd: ['true'], stdout: true }));
    expect(err.code).toBe(GrpcStatus.FAILED_PRECONDITION);
    expect(err.details).toContain(created);
    expect(err.details).toContain('CONTAINER_CREATED');
    const none = await callError(s.client.runtime.Exec({ container_id: 'f'.repeat(64), cmd: ['true'], stdout: true }));
    expect(none.code).toBe(GrpcStatus.NOT_FOUND);
    const noCmd = await callError(s.client.runtime.Exec({ container_id: id, cmd: [], stdout: true }));
    expect(noCmd.code).toBe(GrpcStatus.INVALID_ARGUMENT);
  });
});
