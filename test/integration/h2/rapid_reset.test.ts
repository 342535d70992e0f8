// A client that floods a connection with HEADERS + RST_STREAM pairs (rapid reset, CVE-2023-44487)
// and goes away. Node's HTTP/2 answers the flood with GOAWAY and stops reading the connection, but
// never closes it, so berthd never saw the client leave: each such connection kept its socket (and
// on the bridged path the socketpair's two ends too) for good. berthd's keepalive ping
// ([grpc] keepalive_time_ms, 1 s here) goes unanswered (1 s here too), and berthd closes it.
import { connect } from 'node:net';
import { frame } from '../../../internal/h2/authority_rewrite';
import { grpcRequestHeaders, unaryCallBytes } from '../../harness/h2_abuse';
import { socketCount } from '../../harness/proc_fds';
import { createBerthEnv, type BerthEnv } from '../recovery/berth_env';
import { until } from '../recovery/probes';

jest.setTimeout(180_000);

const VERSION = '/runtime.v1.RuntimeService/Version';
/**
 * Past the reset rate nghttp2 takes (1,000 a burst) before it answers GOAWAY. On the bridged path,
 * enough more that what nghttp2 leaves unread fills the socketpair, and the bridge, holding the
 * client back, no longer sees it leave either.
 */
const RESETS = { direct: 1_100, bridged: 20_000 };

/** One connection: preface, the flood, a moment for berthd to read it, then the client is gone. */
async function floodAndLeave(socket: string, authority: string, resets: number): Promise<void> {
  const headers = grpcRequestHeaders(VERSION, authority);
  const cancel = Buffer.alloc(4);
  cancel.writeUInt32BE(8, 0); // CANCEL
  const parts: Buffer[] = [];
  for (let i = 0, id = 1; i < resets; i++, id += 2) parts.push(frame(0x1, 0x4, id, headers), frame(0x3, 0, id, cancel));
  const client = connect(socket);
  client.on('error', () => undefined);
  client.on('data', () => undefined);
  await new Promise<void>((resolve) => client.once('connect', resolve));
  client.write(unaryCallBytes(authority, VERSION).preface);
  client.write(Buffer.concat(parts));
  // Until berthd has answered (its GOAWAY): it has read the flood by then.
  await new Promise<void>((resolve) => {
    client.once('data', () => resolve());
    client.once('close', () => resolve());
  });
  client.destroy();
}

describe('rapid reset, then the client leaves', () => {
  let env: BerthEnv;
  const sockets = () => socketCount(env.daemon.pid);

  beforeAll(async () => {
    env = await createBerthEnv({ extraToml: () => '[grpc]\nkeepalive_time_ms = 1000\nkeepalive_timeout_ms = 1000\n' });
    await env.start();
  });

  afterAll(async () => {
    await env?.close();
  });

  it.each([
    ['a valid authority (handed to grpc-js directly)', () => 'localhost', RESETS.direct],
    ['the socket path (bridged)', (socket: string) => socket, RESETS.bridged],
  ])('with %s: berthd closes the connection', async (_what, authorityOf, resets) => {
    await env.client.runtime.Version({});
    const before = sockets();
    await Promise.all(Array.from({ length: 20 }, () => floodAndLeave(env.daemon.socket, authorityOf(env.daemon.socket), resets)));
    // A guard against hanging, not a timing assert: without the keepalive the count never came back.
    await until('berthd to close the flooding connections', () => sockets() <= before);
    expect((await env.client.runtime.Version({})).runtime_name).toBe('berth');
  });
});
