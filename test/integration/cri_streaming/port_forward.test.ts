// PortForward into a real pod's network namespace through berthd, over SPDY and WebSocket: HTTP
// and echo round trips to listeners that exist only inside the pod, and the errors a client sees.
// All traffic stays in the pod's netns and on the host's loopback (the streaming server).
import { status as GrpcStatus } from '@grpc/grpc-js';
import { randomInt } from 'node:crypto';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { callError } from '../../harness/cri_client';
import { HttpError, portForward, type Transport } from '../../harness/streaming_client';
import { startContainerSuite, type ContainerSuite } from '../cri_containers/env';
import { closeSuiteCleanly } from './clean_host';

jest.setTimeout(180_000);

const transports: Transport[] = ['spdy', 'websocket'];

/** Whether something on the host's loopback accepts connections on `port`. */
function hostAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A port nothing on the host listens on, so reaching it proves we went into the pod. */
async function portFreeOnHost(taken: number[]): Promise<number> {
  for (;;) {
    const port = randomInt(20_000, 40_000);
    if (!taken.includes(port) && !(await hostAccepts(port))) return port;
  }
}

/** Everything the stream yields until it ends (a guard of 30 s against hanging). */
function readAll(stream: Duplex): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => reject(new Error(`stream never ended; got ${JSON.stringify(Buffer.concat(chunks).toString())}`)), 30_000);
    stream.on('data', (c: Buffer) => chunks.push(Buffer.from(c)));
    stream.once('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString());
    });
    stream.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

/** Reads until `bytes` bytes arrived. */
function readBytes(stream: Duplex, bytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let got = 0;
    const timer = setTimeout(() => reject(new Error(`only ${got} of ${bytes} bytes came back`)), 30_000);
    const onData = (c: Buffer) => {
      chunks.push(Buffer.from(c));
      got += c.length;
      if (got >= bytes) {
        clearTimeout(timer);
        stream.removeListener('data', onData);
        resolve(Buffer.concat(chunks));
      }
    };
    stream.on('data', onData);
    stream.once('error', reject);
  });
}

describe('port-forward into a real pod', () => {
  let s: ContainerSuite;
  let podId: string;
  let httpPort: number;
  let echoPort: number;
  let closedPort: number;

  beforeAll(async () => {
    s = await startContainerSuite();
    httpPort = await portFreeOnHost([]);
    echoPort = await portFreeOnHost([httpPort]);
    closedPort = await portFreeOnHost([httpPort, echoPort]);
    const pod = await s.runPod('forward');
    podId = pod.podId;
    const web = await s.create(podId, pod.config, 'web', ['sh', '-c', `echo pong > /tmp/index.html; exec httpd -f -p ${httpPort} -h /tmp`]);
    const echo = await s.create(podId, pod.config, 'echo', ['nc', '-ll', '-p', String(echoPort), '-e', 'cat']);
    await s.client.runtime.StartContainer({ container_id: web });
    await s.client.runtime.StartContainer({ container_id: echo });
    // Both listen once `netstat` in the pod shows them (a guard against racing their start).
    const giveUp = Date.now() + 30_000;
    for (;;) {
      const { stdout } = await s.client.runtime.ExecSync({ container_id: web, cmd: ['netstat', '-ltn'], timeout: '10' });
      const listening = stdout.toString();
      if (listening.includes(`:${httpPort} `) && listening.includes(`:${echoPort} `)) break;
      if (Date.now() > giveUp) throw new Error(`listeners never came up:\n${listening}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  afterAll(async () => {
    await closeSuiteCleanly(s);
  });

  const forwardUrl = async () => (await s.client.runtime.PortForward({ pod_sandbox_id: podId, port: [] })).url;

  it('reaches listeners that exist only in the pod: the host loopback refuses the same ports', async () => {
    expect(await hostAccepts(httpPort)).toBe(false);
    expect(await hostAccepts(echoPort)).toBe(false);
  });

  describe.each(transports)('over %s', (transport) => {
    it('forwards an HTTP GET to busybox httpd in the pod', async () => {
      const fwd = await portForward(await forwardUrl(), httpPort, transport);
      try {
        fwd.stream.write('GET /index.html HTTP/1.0\r\nHost: localhost\r\n\r\n');
        const response = await readAll(fwd.stream);
        expect(response).toMatch(/^HTTP\/1\.[01] 200 OK\r\n/);
        expect(response.endsWith('\r\n\r\npong\n')).toBe(true);
        expect(await fwd.errorText).toBe('');
      } finally {
        fwd.close();
      }
    });

    it('round-trips bytes through an echo server, large payloads included', async () => {
      const fwd = await portForward(await forwardUrl(), echoPort, transport);
      try {
        fwd.stream.write('ping 1\n');
        expect((await readBytes(fwd.stream, 7)).toString()).toBe('ping 1\n');
        const big = Buffer.alloc(256 * 1024, 'berth-port-forward\n');
        fwd.stream.write(big);
        expect((await readBytes(fwd.stream, big.length)).equals(big)).toBe(true);
      } finally {
        fwd.close();
      }
    });

    it('reports a port nobody listens on in the pod on the error stream', async () => {
      const fwd = await portForward(await forwardUrl(), closedPort, transport);
      try {
        expect(await readAll(fwd.stream)).toBe('');
        const error = await fwd.errorText;
        // containerd's words, which kubectl prints; the namespace file is not named as what refused.
        expect(error).toMatch(
          new RegExp(
            `^error forwarding port ${closedPort} to pod ${podId}, uid : failed to execute portforward in network namespace "[^"]+/netns/[^"]+": ` +
              `failed to connect to localhost:${closedPort} inside namespace "${podId}", IPv4: dial tcp4 127\\.0\\.0\\.1:${closedPort}: connect: connection refused ` +
              `IPv6 dial tcp6 \\[::1\\]:${closedPort}: connect: [a-z ]+ $`,
          ),
        );
      } finally {
        fwd.close();
      }
    });

    it('uses each URL once: a second connection is answered 404', async () => {
      const url = await forwardUrl();
      const first = await portForward(url, echoPort, transport);
      first.close();
      const reused = await portForward(url, echoPort, transport).catch((err: unknown) => err);
      expect(reused).toBeInstanceOf(HttpError);
      expect((reused as HttpError).statusCode).toBe(404);
    });
  });

  it('refuses PortForward for an unknown pod and for a stopped one', async () => {
    expect((await callError(s.client.runtime.PortForward({ pod_sandbox_id: 'f'.repeat(64), port: [] }))).code).toBe(GrpcStatus.NOT_FOUND);
    const other = await s.runPod('stopped');
    await s.client.runtime.StopPodSandbox({ pod_sandbox_id: other.podId });
    const err = await callError(s.client.runtime.PortForward({ pod_sandbox_id: other.podId, port: [] }));
    expect(err.code).toBe(GrpcStatus.FAILED_PRECONDITION);
    expect(err.details).toContain(other.podId);
  });
});
