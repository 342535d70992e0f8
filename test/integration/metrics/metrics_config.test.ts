// `[metrics] address`: off by default (berthd's only TCP listener is then its streaming server),
// a malformed address refused naming the key, and a port already taken refused at start with
// nothing left behind (berthd exits 1, its socket removed).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBerthdToExit, startBerthd } from '../../harness/daemon';
import { freePort } from '../../harness/registry';
import { listeningTcpPorts } from '../../harness/tcp_listeners';

jest.setTimeout(120_000);

describe('[metrics] address', () => {
  it('opens no TCP listener when not configured: only the streaming server listens', async () => {
    const streamPort = await freePort();
    const daemon = await startBerthd({ configToml: `[cri]\nstream_server_port = "${streamPort}"\n` });
    try {
      expect(listeningTcpPorts(daemon.pid)).toEqual([streamPort]);
      expect(daemon.stderr()).not.toContain('metrics serving');
    } finally {
      await daemon.stop();
    }
  });

  it('refuses an address that is not host:port, naming the key', async () => {
    const run = await runBerthdToExit({ configToml: '[metrics]\naddress = "localhost"\n' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/metrics\.address: must be "host:port"/);
  });

  it('exits 1 when the port is taken, leaving no socket behind', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    const dir = mkdtempSync(join(tmpdir(), 'berth-metrics-taken-'));
    try {
      const run = await runBerthdToExit({ dir, configToml: `[metrics]\naddress = "127.0.0.1:${port}"\n` });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`metrics address 127.0.0.1:${port}: cannot listen`);
      expect(existsSync(join(dir, 'berth.sock'))).toBe(false);
    } finally {
      await new Promise<void>((resolve) => taken.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
