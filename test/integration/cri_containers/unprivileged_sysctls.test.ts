// enable_unprivileged_ports / enable_unprivileged_icmp (containerd 2.0's defaults, on) seen from
// inside a pod: a non-root container without capabilities binds port 80 and pings with the
// defaults, and cannot with both options off; a pod's own sysctl value wins over the default.
// The ping is icmp_echo.c (an ICMP echo socket, as iputils ping uses without CAP_NET_RAW),
// compiled static and bind-mounted in: busybox's ping knows only raw sockets.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { deadline } from '../../harness/berth_env';
import { createBerthEnv, SLEEPER, type BerthEnv } from '../recovery/berth_env';

jest.setTimeout(180_000);

const ICMP_ECHO_IN_CONTAINER = '/usr/local/bin/icmp-echo';

// Non-root, and none of CAP_NET_BIND_SERVICE / CAP_NET_RAW that would make the sysctls moot.
const UNPRIVILEGED = { linux: { security_context: { run_as_user: { value: 1000 }, capabilities: { drop_capabilities: ['ALL'] } } } };
// busybox httpd binds before it daemonizes: its exit status says whether the bind worked.
const BIND_80 = ['sh', '-c', 'httpd -p 80 -h /tmp </dev/null >/dev/null 2>/tmp/httpd.err; echo "rc=$?"; cat /tmp/httpd.err'];
const PING = [ICMP_ECHO_IN_CONTAINER, '127.0.0.1'];

/** Where buildIcmpEcho puts the binary: the env's dir, removed with it. */
const icmpEchoPath = (env: BerthEnv): string => join(env.dir, 'icmp-echo');

function buildIcmpEcho(env: BerthEnv): void {
  execFileSync('gcc', ['-static', '-Os', '-s', '-Wall', '-Wextra', '-Werror', '-o', icmpEchoPath(env), join(__dirname, 'icmp_echo.c')]);
}

async function unprivilegedContainer(env: BerthEnv, podName: string, sysctls: Record<string, string> = {}): Promise<string> {
  const base = env.podConfig(podName);
  const { podId, config } = await env.runPod(podName, { linux: { ...base.linux, sysctls } });
  const mounts = [{ container_path: ICMP_ECHO_IN_CONTAINER, host_path: icmpEchoPath(env), readonly: true }];
  const id = await env.create(podId, config, 'app', SLEEPER, { ...UNPRIVILEGED, mounts });
  await env.client.runtime.StartContainer({ container_id: id }, deadline());
  return id;
}

async function exec(env: BerthEnv, id: string, cmd: string[]): Promise<{ exit: number; out: string }> {
  const r = await env.client.runtime.ExecSync({ container_id: id, cmd, timeout: '30' });
  return { exit: r.exit_code, out: r.stdout.toString() + r.stderr.toString() };
}

describe('unprivileged ports and ICMP on (the defaults)', () => {
  let env: BerthEnv;

  beforeAll(async () => {
    env = await createBerthEnv();
    await env.start();
    buildIcmpEcho(env);
  });

  afterAll(async () => {
    await env?.close();
  });

  it('a non-root container binds port 80 and pings', async () => {
    const id = await unprivilegedContainer(env, 'unpriv-on');
    expect((await exec(env, id, ['id', '-u'])).out.trim()).toBe('1000');
    expect((await exec(env, id, ['cat', '/proc/sys/net/ipv4/ip_unprivileged_port_start'])).out.trim()).toBe('0');
    expect(await exec(env, id, BIND_80)).toEqual({ exit: 0, out: 'rc=0\n' });
    expect(await exec(env, id, PING)).toEqual({ exit: 0, out: 'echo reply from 127.0.0.1\n' });
  });

  it('the pod own sysctl value wins', async () => {
    const id = await unprivilegedContainer(env, 'unpriv-own', { 'net.ipv4.ip_unprivileged_port_start': '1024' });
    const bind = await exec(env, id, BIND_80);
    expect(bind.out).toMatch(/^rc=[1-9]/);
    expect(bind.out).toContain('Permission denied');
    expect((await exec(env, id, PING)).exit).toBe(0); // the ICMP default still applies
  });
});

describe('unprivileged ports and ICMP off', () => {
  let env: BerthEnv;

  beforeAll(async () => {
    env = await createBerthEnv({ criToml: 'enable_unprivileged_ports = false\nenable_unprivileged_icmp = false' });
    await env.start();
    buildIcmpEcho(env);
  });

  afterAll(async () => {
    await env?.close();
  });

  it('a non-root container can neither bind port 80 nor ping', async () => {
    const id = await unprivilegedContainer(env, 'unpriv-off');
    const bind = await exec(env, id, BIND_80);
    expect(bind.out).toMatch(/^rc=[1-9]/);
    expect(bind.out).toContain('Permission denied');
    expect(await exec(env, id, PING)).toEqual({ exit: 1, out: 'socket: Permission denied\n' });
  });
});
