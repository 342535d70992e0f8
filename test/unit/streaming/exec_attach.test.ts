// Exec and attach through the streaming server over SPDY/3.1 and WebSocket, with real host
// processes behind it: what a crictl/kubectl user would see on stdout, stderr and the status.
import { streamExec, type Transport } from '../../harness/streaming_client';
import { startFixture, type Fixture } from './fixture';

const transports: Transport[] = ['spdy', 'websocket'];

describe.each(transports)('exec/attach over %s', (transport) => {
  let f: Fixture;
  beforeEach(async () => {
    f = await startFixture();
  });
  afterEach(async () => {
    await f.stop();
  });

  const exec = (cmd: string[], extra: { tty?: boolean; stdin?: boolean; stderr?: boolean } = {}) =>
    f.server.getExec({ container_id: 'c1', cmd, stdout: true, stderr: extra.stderr ?? !extra.tty, stdin: extra.stdin ?? false, tty: extra.tty ?? false });

  it('runs a command and returns stdout, stderr and a Success status', async () => {
    const url = exec(['sh', '-c', 'echo to-out; echo to-err >&2']);
    const res = await streamExec(url, { transport });
    expect(res.stdout).toBe('to-out\n');
    expect(res.stderr).toBe('to-err\n');
    expect(res.status).toEqual({ metadata: {}, status: 'Success' });
    expect(res.errorText).toBe('{"metadata":{},"status":"Success"}');
  });

  it('reports exit code 3 as NonZeroExitCode with an ExitCode cause', async () => {
    const url = exec(['sh', '-c', 'echo before; exit 3']);
    const res = await streamExec(url, { transport });
    expect(res.stdout).toBe('before\n');
    expect(res.status).toEqual({
      metadata: {},
      status: 'Failure',
      message: 'command terminated with non-zero exit code: error executing command [sh -c echo before; exit 3], exit code 3',
      reason: 'NonZeroExitCode',
      details: { causes: [{ reason: 'ExitCode', message: '3' }] },
    });
  });

  it('feeds stdin to the command and ends it when the client closes stdin', async () => {
    const url = exec(['cat'], { stdin: true });
    const input = 'hello through stdin\n'.repeat(5000); // ~100 KB: several frames and window updates
    const res = await streamExec(url, { transport, stdin: input });
    expect(res.stdout).toBe(input);
    expect(res.status?.status).toBe('Success');
  });

  it('reports a command that cannot run as InternalError', async () => {
    const url = exec(['/nonexistent/berth-no-such-binary']);
    const res = await streamExec(url, { transport });
    expect(res.status?.status).toBe('Failure');
    expect(res.status?.reason).toBe('InternalError');
    expect(res.status?.code).toBe(500);
    expect(res.status?.message).toContain('error executing command in container');
    expect(res.status?.message).toContain('ENOENT');
  });

  it('with tty merges stderr into stdout and delivers resize events', async () => {
    f.runtime.resizesBeforeStart = 2;
    const url = exec(['sh', '-c', 'echo from-out; echo from-err >&2'], { tty: true });
    const res = await streamExec(url, { transport, tty: true, resize: [{ width: 80, height: 24 }, { width: 132, height: 43 }] });
    expect(f.runtime.resizes).toEqual([{ width: 80, height: 24 }, { width: 132, height: 43 }]);
    expect(res.stdout).toContain('resize 80x24\nresize 132x43\n');
    expect(res.stdout).toContain('from-out\n');
    expect(res.stdout).toContain('from-err\n');
    expect(res.stderr).toBe('');
    expect(res.status?.status).toBe('Success');
  });

  it('attaches: stdin reaches the container and its output comes back', async () => {
    const url = f.server.getAttach({ container_id: 'c1', stdin: true, stdout: true, stderr: true, tty: false });
    const res = await streamExec(url, { transport, stdin: 'attached input\n' });
    expect(res.stdout).toBe('attached input\n');
    expect(res.status).toEqual({ metadata: {}, status: 'Success' });
  });

  it('reports an attach failure as InternalError naming the container', async () => {
    const url = f.server.getAttach({ container_id: 'missing', stdout: true, stderr: true });
    const res = await streamExec(url, { transport });
    expect(res.status?.reason).toBe('InternalError');
    expect(res.status?.message).toBe('Internal error occurred: error attaching to container: container "missing" not found');
  });

  it('closes open sessions and kills their processes when the server stops', async () => {
    const url = exec(['cat'], { stdin: true });
    const spawned = f.runtime.nextSpawn();
    let established!: () => void;
    const clientReady = new Promise<void>((resolve) => (established = resolve));
    const session = streamExec(url, { transport, holdStdinOpen: true, onEstablished: () => established() });
    const [child] = await Promise.all([spawned, clientReady]);
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('close', (_code, signal) => resolve(signal)));
    await f.server.stop();
    const res = await session;
    expect(res.status).toBeUndefined(); // cut, no status
    expect(await exited).toBe('SIGKILL');
  });
});

describe('older protocols', () => {
  let f: Fixture;
  beforeEach(async () => {
    f = await startFixture();
  });
  afterEach(async () => {
    await f.stop();
  });
  const failing = () => f.server.getExec({ container_id: 'c1', cmd: ['sh', '-c', 'echo x; exit 3'], stdout: true, stderr: true });

  it.each(['v3.channel.k8s.io', 'v2.channel.k8s.io', 'channel.k8s.io'])('SPDY %s reports failure as plain text', async (protocol) => {
    const res = await streamExec(failing(), { transport: 'spdy', protocol });
    expect(res.stdout).toBe('x\n');
    expect(res.errorText).toBe('command terminated with non-zero exit code: error executing command [sh -c echo x; exit 3], exit code 3');
  });

  it('SPDY v3 reports nothing on success', async () => {
    const url = f.server.getExec({ container_id: 'c1', cmd: ['true'], stdout: true });
    const res = await streamExec(url, { transport: 'spdy', protocol: 'v3.channel.k8s.io', stderr: false });
    expect(res.errorText).toBe('');
  });

  it('WebSocket v4.base64.channel.k8s.io carries base64 text frames', async () => {
    const url = f.server.getExec({ container_id: 'c1', cmd: ['sh', '-c', 'printf "\\001\\002bin"; exit 3'], stdout: true, stderr: true });
    const res = await streamExec(url, { transport: 'websocket', protocol: 'v4.base64.channel.k8s.io' });
    expect(Buffer.from(res.stdout)).toEqual(Buffer.from('\x01\x02bin'));
    expect(res.status?.reason).toBe('NonZeroExitCode');
  });

  it('WebSocket v4.channel.k8s.io: stdin cannot be half-closed, output and status still arrive', async () => {
    const url = f.server.getExec({ container_id: 'c1', cmd: ['sh', '-c', 'head -c 5'], stdin: true, stdout: true });
    const res = await streamExec(url, { transport: 'websocket', protocol: 'v4.channel.k8s.io', stdin: 'abcdefgh', stderr: false });
    expect(res.stdout).toBe('abcde');
    expect(res.status?.status).toBe('Success');
  });
});
