// A pod's hosts and resolv.conf are copies of the node's files: a node file that is a FIFO, a
// directory or huge must fail or stream the copy, never stall berthd's event loop, and the node's
// resolv.conf is not opened at all for a pod whose DNS config gives one.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_HOSTS } from '../../../internal/cri/opts/sandbox_files';
import { sandboxPaths, writeSandboxFiles, type NodeFiles } from '../../../internal/cri/sandbox_files';
import { kindOf } from '../../../internal/errdefs/errors';
import type { SandboxPaths } from '../../../internal/cri/opts/types';
import { podConfig } from '../opts/fixtures';

const DNS = { servers: ['10.96.0.10'], searches: ['svc.cluster.local'], options: ['ndots:5'] };

describe('sandboxPaths', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'berth-sandbox-paths-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const dirs = () => ({ rootDir: join(dir, 'root'), stateDir: join(dir, 'state') });

  it('keeps the files of a pod an earlier berth made in its state dir, and puts new ones in the root dir', () => {
    expect(sandboxPaths(dirs()).hostsPath).toBe(join(dir, 'root', 'hosts'));
    mkdirSync(join(dir, 'state'));
    writeFileSync(join(dir, 'state', 'hostname'), 'pod\n');
    expect(sandboxPaths(dirs())).toMatchObject({ hostnamePath: join(dir, 'state', 'hostname'), resolvPath: join(dir, 'state', 'resolv.conf') });
  });

  it('a directory an older berth made at the state dir name does not turn the pod away from its files', () => {
    mkdirSync(join(dir, 'state', 'hostname'), { recursive: true });
    expect(sandboxPaths(dirs())).toMatchObject({ hostnamePath: join(dir, 'root', 'hostname'), hostsPath: join(dir, 'root', 'hosts') });
  });
});

describe('writeSandboxFiles', () => {
  let dir: string;
  let node: NodeFiles;
  let paths: SandboxPaths;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-sandbox-files-'));
    mkdirSync(join(dir, 'node'));
    mkdirSync(join(dir, 'pod'));
    node = { hosts: join(dir, 'node', 'hosts'), resolvConf: join(dir, 'node', 'resolv.conf') };
    paths = sandboxPaths({ rootDir: join(dir, 'pod'), stateDir: join(dir, 'pod-state') });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const fifoAt = (path: string) => execFileSync('mkfifo', [path]);

  it("copies the node's hosts and resolv.conf, through a symlink, mode 0644", async () => {
    writeFileSync(node.hosts, '127.0.0.1 localhost node-1\n');
    writeFileSync(join(dir, 'node', 'stub-resolv.conf'), 'nameserver 10.0.0.2\n');
    symlinkSync('stub-resolv.conf', node.resolvConf);
    await writeSandboxFiles(podConfig(), paths, node);
    expect(readFileSync(paths.hostnamePath, 'utf8')).toBe('web-0\n');
    expect(readFileSync(paths.hostsPath, 'utf8')).toBe('127.0.0.1 localhost node-1\n');
    expect(readFileSync(paths.resolvPath, 'utf8')).toBe('nameserver 10.0.0.2\n');
    expect(statSync(paths.resolvPath).mode & 0o777).toBe(0o644);
  });

  it("does not open the node's resolv.conf for a pod with a DNS config", async () => {
    writeFileSync(node.hosts, '127.0.0.1 localhost\n');
    fifoAt(node.resolvConf); // opened for reading, it would wait for a writer
    await writeSandboxFiles(podConfig({ dns_config: DNS }), paths, node);
    expect(readFileSync(paths.resolvPath, 'utf8')).toBe('search svc.cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n');
  });

  it('fails the pod, without waiting, when a node file is a FIFO or a directory', async () => {
    writeFileSync(node.hosts, '127.0.0.1 localhost\n');
    fifoAt(node.resolvConf);
    const fifo = await writeSandboxFiles(podConfig(), paths, node).catch((err: unknown) => err);
    expect(kindOf(fifo)).toBe('FailedPrecondition');
    expect((fifo as Error).message).toBe(`the node's ${node.resolvConf} is not a regular file`);

    rmSync(node.hosts);
    mkdirSync(node.hosts);
    const directory = await writeSandboxFiles(podConfig({ dns_config: DNS }), paths, node).catch((err: unknown) => err);
    expect(kindOf(directory)).toBe('FailedPrecondition');
    expect((directory as Error).message).toBe(`the node's ${node.hosts} is not a regular file`);
  });

  it("writes a localhost table on a node without hosts, and fails a pod that needs the node's missing resolv.conf", async () => {
    await writeSandboxFiles(podConfig({ dns_config: DNS }), paths, node);
    expect(readFileSync(paths.hostsPath, 'utf8')).toBe(DEFAULT_HOSTS);
    const err = await writeSandboxFiles(podConfig(), paths, node).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('FailedPrecondition');
    expect((err as Error).message).toBe(`the node has no ${node.resolvConf} to copy for the pod`);
  });

  it('streams a huge node file: the event loop turns while it is copied', async () => {
    writeFileSync(node.hosts, '');
    truncateSync(node.hosts, 64 << 20); // sparse: 64 MiB of NULs, a thousand chunks
    let turns = 0;
    let copying = true;
    const spin = () => {
      turns++;
      if (copying) setImmediate(spin);
    };
    setImmediate(spin);
    await writeSandboxFiles(podConfig({ dns_config: DNS }), paths, node).finally(() => (copying = false));
    expect(statSync(paths.hostsPath).size).toBe(64 << 20);
    expect(turns).toBeGreaterThan(1);
  });
});
