// A streaming server on 127.0.0.1:<ephemeral> backed by HostProcessRuntime, for the tests.
import { StreamingServer, type StreamingServerOptions } from '../../../internal/cri/streaming/server';
import { silentLogger } from '../../../internal/log/logger';
import { HostProcessRuntime } from './host_runtime';

export interface Fixture {
  server: StreamingServer;
  runtime: HostProcessRuntime;
  /** "http://127.0.0.1:<port>" */
  base: string;
  stop(): Promise<void>;
}

export async function startFixture(extra: Partial<StreamingServerOptions> = {}): Promise<Fixture> {
  const runtime = new HostProcessRuntime();
  const server = new StreamingServer({ runtime, logger: silentLogger, ...extra });
  const addr = await server.start();
  return {
    server,
    runtime,
    base: `http://${addr}`,
    stop: async () => {
      await server.stop();
      // Any child still running is a leak of the test, not of the server: kill by PID, ours only.
      for (const child of runtime.children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}
