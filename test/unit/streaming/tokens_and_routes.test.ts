// URLs, tokens and HTTP-level answers: single use, expiry, unknown paths, validation of the
// request at the RPC, protocol negotiation failures.
import { HttpError, httpRequest, openSpdyStream, spdyUpgrade, streamExec } from '../../harness/streaming_client';
import { BerthError } from '../../../internal/errdefs/errors';
import { startFixture, type Fixture } from './fixture';

describe('streaming URLs', () => {
  let f: Fixture;
  let clock = 1_000_000;
  beforeEach(async () => {
    clock = 1_000_000;
    f = await startFixture({ now: () => clock, tokenTtlMs: 60_000 });
  });
  afterEach(async () => {
    await f.stop();
  });

  const execUrl = () => f.server.getExec({ container_id: 'c1', cmd: ['echo', 'hi'], stdout: true });

  it('hands out URLs like kubelet: http://<addr>:<port>/<kind>/<token>', () => {
    expect(execUrl()).toMatch(new RegExp(`^${f.base}/exec/[A-Za-z0-9_-]{16,}$`));
    expect(f.server.getAttach({ container_id: 'c1', stdout: true })).toMatch(/\/attach\/[A-Za-z0-9_-]+$/);
    expect(f.server.getPortForward({ pod_sandbox_id: 'sb', port: [80] })).toMatch(/\/portforward\/[A-Za-z0-9_-]+$/);
    expect(execUrl()).not.toBe(execUrl());
  });

  it.each(['spdy', 'websocket'] as const)('a token works once; the second use is a 404 (%s)', async (transport) => {
    const url = execUrl();
    expect((await streamExec(url, { transport, stderr: false })).stdout).toBe('hi\n');
    const second = streamExec(url, { transport, stderr: false });
    await expect(second).rejects.toBeInstanceOf(HttpError);
    await expect(second).rejects.toMatchObject({ statusCode: 404, body: '404 page not found\n' }); // http.NotFound's, as kubelet's server
  });

  it('a token expires after its TTL', async () => {
    const url = execUrl();
    clock += 60_001;
    await expect(streamExec(url, { transport: 'spdy', stderr: false })).rejects.toMatchObject({ statusCode: 404 });
  });

  it('a token is valid just before its TTL', async () => {
    const url = execUrl();
    clock += 59_000;
    expect((await streamExec(url, { transport: 'websocket', stderr: false })).stdout).toBe('hi\n');
  });

  it('a token is bound to its kind: an exec token is not an attach URL', async () => {
    const token = execUrl().split('/').pop() ?? '';
    const res = await httpRequest(`${f.base}/attach/${token}`);
    expect(res.statusCode).toBe(404);
  });

  it('unknown paths and unknown tokens are 404', async () => {
    expect((await httpRequest(`${f.base}/`)).statusCode).toBe(404);
    expect((await httpRequest(`${f.base}/metrics`)).statusCode).toBe(404);
    const unknown = await httpRequest(`${f.base}/exec/doesnotexist`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toBe('404 page not found\n');
  });

  it('a valid token without an upgrade is a 400 and is spent', async () => {
    const url = execUrl();
    const res = await httpRequest(url, 'POST');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('unable to upgrade');
    expect((await httpRequest(url, 'POST')).statusCode).toBe(404);
  });

  it('refuses SPDY without a protocol we speak, naming what we accept', async () => {
    const err = await spdyUpgrade(execUrl(), ['v9.channel.k8s.io']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).statusCode).toBe(403);
    expect((err as HttpError).body).toContain('v4.channel.k8s.io');
  });

  it('negotiates the client\'s preferred protocol among those we speak', async () => {
    const client = await spdyUpgrade(execUrl(), ['v5.channel.k8s.io', 'v3.channel.k8s.io', 'v4.channel.k8s.io']);
    expect(client.protocol).toBe('v3.channel.k8s.io');
    client.socket.destroy();
  });

  it('validates requests at the RPC as kubelet does', () => {
    const bad = (fn: () => string) => {
      try {
        fn();
      } catch (err) {
        return err;
      }
      return undefined;
    };
    const ttyStderr = bad(() => f.server.getExec({ container_id: 'c1', cmd: ['sh'], tty: true, stdout: true, stderr: true }));
    expect(ttyStderr).toBeInstanceOf(BerthError);
    expect((ttyStderr as BerthError).kind).toBe('InvalidArgument');
    expect((ttyStderr as BerthError).message).toContain('tty and stderr cannot both be true');
    const noStreams = bad(() => f.server.getAttach({ container_id: 'c9' }));
    expect((noStreams as BerthError).message).toBe('attach to container c9: one of stdin, stdout, or stderr must be set');
    expect((bad(() => f.server.getExec({ cmd: ['sh'], stdout: true })) as BerthError).kind).toBe('InvalidArgument');
    expect((bad(() => f.server.getExec({ container_id: 'c1', cmd: [], stdout: true })) as BerthError).message).toContain('cmd is required');
    expect((bad(() => f.server.getPortForward({ pod_sandbox_id: 'sb', port: [0] })) as BerthError).message).toContain('port 0');
  });
});

describe('stream creation timeout', () => {
  it('closes a SPDY session whose client does not open the streams it asked for', async () => {
    const f = await startFixture({ streamCreationTimeoutMs: 200 });
    try {
      const url = f.server.getExec({ container_id: 'c1', cmd: ['true'], stdout: true, stderr: true });
      const client = await spdyUpgrade(url, ['v4.channel.k8s.io']);
      const closed = new Promise<void>((resolve) => client.socket.once('close', () => resolve()));
      // stdout and stderr never come. Under load the 200 ms may pass before the error stream's reply
      // arrives, so the reply is not waited for: the session closing is what this is about.
      openSpdyStream(client.conn, { streamtype: 'error' }).catch(() => undefined);
      await closed;
      expect(f.runtime.children).toHaveLength(0); // nothing was run
    } finally {
      await f.stop();
    }
  });
});

describe('streaming server lifecycle', () => {
  it('refuses URLs when not running and frees its port on stop', async () => {
    const f = await startFixture();
    const url = f.server.getExec({ container_id: 'c1', cmd: ['true'], stdout: true });
    await f.stop();
    expect(() => f.server.getExec({ container_id: 'c1', cmd: ['true'], stdout: true })).toThrow(/not running/);
    await expect(httpRequest(url)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
