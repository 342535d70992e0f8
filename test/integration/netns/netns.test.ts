// Real network namespaces: created by the native addon, inspected with nsenter/ip, removed without
// leaving a mount behind; and a TCP connection opened from inside one.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NetNS, isNetnsMounted, netnsPathFor, sweepOrphanNetns } from '../../../internal/netns/netns';
import { kindOf } from '../../../internal/errdefs/errors';

const mounted = (path: string): boolean =>
  readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .some((line) => line.split(' ')[4] === path);

const inNetns = (path: string, cmd: string[]): string =>
  execFileSync('nsenter', [`--net=${path}`, ...cmd], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

const linkNames = (out: string): string[] =>
  out
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.split(':')[1]!.trim().split('@')[0]!);

/** Every thread's netns, so a test can tell that no Node thread was left in a pod namespace. */
const threadNamespaces = (): Set<string> =>
  new Set(readdirSync('/proc/self/task').map((tid) => readlinkSync(`/proc/self/task/${tid}/ns/net`)));

/** A port that is free on the host right now. */
async function freeHostPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('network namespaces', () => {
  let dir: string;
  const created: NetNS[] = [];
  const children: ChildProcess[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-netns-'));
  });

  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const ns of created.splice(0)) ns.remove();
    rmSync(dir, { recursive: true, force: true });
  });

  test('create pins a new, empty namespace on <dir>/cni-<uuid>; remove leaves nothing', async () => {
    const hostNs = threadNamespaces();
    const ns = await NetNS.create(join(dir, 'netns'));
    created.push(ns);

    expect(ns.path).toMatch(new RegExp(`^${dir}/netns/cni-[0-9a-f-]{36}$`));
    expect(isNetnsMounted(ns.path)).toBe(true);
    expect(ns.closed()).toBe(false);
    expect(mounted(ns.path)).toBe(true);
    // Inside: only a loopback, and it is down; the host has more links than that.
    expect(linkNames(inNetns(ns.path, ['ip', '-o', 'link']))).toEqual(['lo']);
    expect(inNetns(ns.path, ['ip', '-o', 'link'])).toContain('state DOWN');
    expect(linkNames(execFileSync('ip', ['-o', 'link'], { encoding: 'utf8' })).length).toBeGreaterThan(1);
    // Node's own threads never moved.
    expect(threadNamespaces()).toEqual(hostNs);

    ns.remove();
    expect(existsSync(ns.path)).toBe(false);
    expect(mounted(ns.path)).toBe(false);
    expect(ns.closed()).toBe(true);
    expect(() => ns.remove()).not.toThrow(); // idempotent
  });

  test('two namespaces are distinct', async () => {
    const a = await NetNS.create(dir);
    created.push(a);
    const b = await NetNS.create(dir);
    created.push(b);
    expect(a.path).not.toBe(b.path);
    inNetns(a.path, ['ip', 'link', 'add', 'dummy-a', 'type', 'veth', 'peer', 'name', 'dummy-b']);
    expect(linkNames(inNetns(a.path, ['ip', '-o', 'link']))).toContain('dummy-a');
    expect(linkNames(inNetns(b.path, ['ip', '-o', 'link']))).not.toContain('dummy-a');
  });

  test('creating on an existing path fails with AlreadyExists and leaves the file alone', async () => {
    const path = netnsPathFor(dir, 'taken');
    writeFileSync(path, 'not a namespace');
    await expect(NetNS.createAt(path)).rejects.toThrow(path);
    await NetNS.createAt(path).catch((err: unknown) => expect(kindOf(err)).toBe('AlreadyExists'));
    expect(readFileSync(path, 'utf8')).toBe('not a namespace');
    expect(isNetnsMounted(path)).toBe(false);
  });

  test('a failed create names the path and leaves nothing behind', async () => {
    writeFileSync(join(dir, 'plainfile'), '');
    await expect(NetNS.createAt(join(dir, 'plainfile', 'cni-y'))).rejects.toThrow(/plainfile/);
    expect(readdirSync(dir)).toEqual(['plainfile']);
  });

  test('netnsPathFor rejects ids that are not plain names', () => {
    expect(() => netnsPathFor(dir, '../escape')).toThrow(/not a plain name/);
  });

  test('sweep removes orphan cni-* namespaces and keeps live ones and foreign files', async () => {
    const live = await NetNS.create(dir);
    created.push(live);
    const orphan = await NetNS.create(dir);
    created.push(orphan);
    writeFileSync(join(dir, 'someone-else'), '');

    const removed = sweepOrphanNetns(dir, new Set([live.path]));

    expect(removed).toEqual([orphan.path]);
    expect(existsSync(orphan.path)).toBe(false);
    expect(mounted(orphan.path)).toBe(false);
    expect(isNetnsMounted(live.path)).toBe(true);
    expect(existsSync(join(dir, 'someone-else'))).toBe(true);
    expect(sweepOrphanNetns(join(dir, 'nope'), new Set())).toEqual([]);
  });

  test('connect reaches a listener inside the namespace that the host cannot reach', async () => {
    const ns = await NetNS.create(dir);
    created.push(ns);
    inNetns(ns.path, ['ip', 'link', 'set', 'lo', 'up']);
    const port = await freeHostPort();
    const script =
      `require('net').createServer((s) => s.end('hello from the pod\\n'))` +
      `.listen(${port}, '127.0.0.1', () => console.log('ready'))`;
    const server = spawn('nsenter', [`--net=${ns.path}`, process.execPath, '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(server);
    await new Promise<void>((resolve, reject) => {
      server.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
      server.on('exit', (code) => reject(new Error(`listener exited ${code}`)));
    });

    const socket = await ns.connect(port);
    const reply = await new Promise<string>((resolve, reject) => {
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    socket.destroy();
    expect(reply).toBe('hello from the pod\n');

    // The same port on the host's loopback has no listener.
    await expect(
      new Promise((resolve, reject) => {
        const c = createConnection({ host: '127.0.0.1', port }, () => resolve(c.destroy()));
        c.on('error', reject);
      }),
    ).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  test('connect to a port nobody listens on inside the namespace is Unavailable', async () => {
    const ns = await NetNS.create(dir);
    created.push(ns);
    inNetns(ns.path, ['ip', 'link', 'set', 'lo', 'up']);
    const err = await ns.connect(await freeHostPort()).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('Unavailable');
    expect((err as Error).message).toContain(ns.path);
  });

  test('connect into a path that is not a namespace fails naming it', async () => {
    const err = await NetNS.load(join(dir, 'cni-none')).connect(80).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('NotFound');
    expect((err as Error).message).toContain('cni-none');
  });
});
