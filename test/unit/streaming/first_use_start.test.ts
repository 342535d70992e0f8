// A streaming server started on first use (berthd's default, port 0): concurrent first calls share
// one listener, a failed start is tried again by the next call, and a stop during a start leaves
// nothing listening.
import { createServer, type Server } from 'node:net';
import { StreamingServer } from '../../../internal/cri/streaming/server';
import { silentLogger } from '../../../internal/log/logger';
import { streamExec } from '../../harness/streaming_client';
import { HostProcessRuntime } from './host_runtime';

const execRequest = { container_id: 'c1', cmd: ['echo', 'hi'], stdout: true };

function listenOnAnyPort(): Promise<Server> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

const portOf = (server: Server) => (server.address() as { port: number }).port;
const closed = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('streaming server started on first use', () => {
  it('is not listening before its first use; concurrent first uses share one listener', async () => {
    const server = new StreamingServer({ runtime: new HostProcessRuntime(), logger: silentLogger });
    try {
      expect(() => server.getExec(execRequest)).toThrow(/not running/);
      await Promise.all([server.whenListening(), server.whenListening(), server.whenListening()]);
      const urls = [server.getExec(execRequest), server.getExec(execRequest)];
      expect(new Set(urls.map((u) => new URL(u).host)).size).toBe(1);
      expect((await streamExec(urls[0]!, { transport: 'spdy', stderr: false })).stdout).toBe('hi\n');
      await server.whenListening(); // already listening: the same listener
      expect(new URL(server.getExec(execRequest)).host).toBe(new URL(urls[0]!).host);
    } finally {
      await server.stop();
    }
  });

  it('a start that failed (port taken) rejects that call, and the next call tries again', async () => {
    const taken = await listenOnAnyPort();
    const port = portOf(taken);
    const server = new StreamingServer({ runtime: new HostProcessRuntime(), logger: silentLogger, port });
    try {
      await expect(server.whenListening()).rejects.toMatchObject({ code: 'EADDRINUSE' });
      expect(() => server.getExec(execRequest)).toThrow(/not running/);
      await closed(taken);
      await server.whenListening();
      expect(new URL(server.getExec(execRequest)).port).toBe(String(port));
    } finally {
      await server.stop();
      if (taken.listening) await closed(taken);
    }
  });

  it('a stop while the first start runs waits for it and leaves nothing listening', async () => {
    const server = new StreamingServer({ runtime: new HostProcessRuntime(), logger: silentLogger });
    const starting = server.whenListening();
    await server.stop();
    await starting;
    expect(() => server.getExec(execRequest)).toThrow(/not running/);
  });
});
