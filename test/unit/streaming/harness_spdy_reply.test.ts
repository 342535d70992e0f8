// The harness's SPDY client against a server that answers as spdystream does (the kubelet's and
// containerd's streaming servers): a SYN_REPLY whose header block holds no headers at all. Before
// the harness accepted such a reply, spdy-transport reset the stream and `make e2e` hung on
// containerd; berth's own server sends :status, so only this server shows the case.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { FrameReader, FrameType, controlFrame, dataFrame, encodeHeaderBlock, wordsBody, FLAG_FIN } from '../../../internal/cri/streaming/spdy/frames';
import { HeaderCompressor } from '../../../internal/cri/streaming/spdy/header_codec';
import { openSpdyStream, spdyUpgrade } from '../../harness/streaming_client';

/**
 * Upgrades to SPDY/3.1; each SYN_STREAM gets a header-less SYN_REPLY, then `reply` as DATA with FIN.
 * `failed` rejects when the client resets a stream (or the server cannot answer), so a client that
 * refuses the reply fails the test at once instead of leaving it waiting.
 */
function spdystreamLikeServer(reply: string): { server: http.Server; sockets: Set<Socket>; failed: Promise<never> } {
  const sockets = new Set<Socket>();
  let fail: (err: unknown) => void = () => undefined;
  const failed = new Promise<never>((_resolve, reject) => (fail = reject));
  const server = http.createServer((_req, res) => res.writeHead(400).end());
  server.on('upgrade', (_req, socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.write('HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v4.channel.k8s.io\r\n\r\n');
    const reader = new FrameReader();
    const compressor = new HeaderCompressor();
    socket.on('close', () => compressor.close());
    socket.on('data', (chunk: Buffer) => {
      for (const frame of reader.push(chunk)) {
        if (frame.control && frame.type === FrameType.RST_STREAM) fail(new Error(`the client reset stream ${frame.body.readUInt32BE(0)}, status ${frame.body.readUInt32BE(4)}`));
        if (!frame.control || frame.type !== FrameType.SYN_STREAM) continue;
        const streamId = frame.body.readUInt32BE(0) & 0x7fffffff;
        void compressor.compress(encodeHeaderBlock({})).then((block) => {
          socket.write(controlFrame(FrameType.SYN_REPLY, 0, Buffer.concat([wordsBody(streamId), block])));
          socket.write(dataFrame(streamId, FLAG_FIN, Buffer.from(reply)));
        }, fail);
      }
    });
  });
  return { server, sockets, failed };
}

describe("the harness's SPDY client", () => {
  it('takes a SYN_REPLY without headers and reads the stream', async () => {
    const { server, sockets, failed } = spdystreamLikeServer('from spdystream');
    failed.catch(() => undefined); // raced below; unobserved when nothing fails
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = await spdyUpgrade(`http://127.0.0.1:${port}/exec/x`, ['v4.channel.k8s.io']);
      try {
        expect(client.protocol).toBe('v4.channel.k8s.io');
        const stream = await Promise.race([openSpdyStream(client.conn, { streamtype: 'stdout' }), failed]);
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(Buffer.from(c)));
        await Promise.race([new Promise<void>((resolve) => stream.once('end', resolve)), failed]);
        expect(Buffer.concat(chunks).toString()).toBe('from spdystream');
      } finally {
        client.socket.destroy();
      }
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
