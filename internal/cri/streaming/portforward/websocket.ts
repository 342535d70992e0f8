// Port-forward over WebSocket, as kubelet's portforward websocket handler: two channels per port
// (2i data, read-write; 2i+1 error, write-only), the first message on each being the port as
// uint16 little-endian. All ports forward at once; the socket closes when all are done.
import { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { Logger } from '../../../log/logger';
import { messageOf } from '../../../errdefs/errors';
import { WebSocketChannels, type ChannelEncoding } from '../websocket_channels';
import type { StreamingRuntime } from '../runtime';

/** Subprotocols we accept ("" = none named, binary). */
export const PORT_FORWARD_WEBSOCKET_PROTOCOLS: Readonly<Record<string, ChannelEncoding>> = {
  'v4.channel.k8s.io': 'binary',
  'v4.base64.channel.k8s.io': 'base64',
  'portforward.k8s.io': 'binary',
  '': 'binary',
};

const portBytes = (port: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(port);
  return b;
};

/** The data channel of one port as a Duplex for the runtime. */
function channelDuplex(channels: WebSocketChannels, channel: number): Duplex {
  const incoming = channels.readable(channel);
  const outgoing = channels.writable(channel);
  const duplex = new Duplex({
    read() {
      incoming.resume();
    },
    write(chunk: Buffer, _enc, callback) {
      outgoing.write(chunk, () => callback());
    },
    final(callback) {
      callback(); // v4 channels cannot be half-closed; the socket closes when all ports are done
    },
  });
  incoming.on('data', (chunk: Buffer) => {
    if (!duplex.push(chunk)) incoming.pause();
  });
  incoming.once('end', () => duplex.push(null));
  return duplex;
}

export async function servePortForwardWebSocket(
  ws: WebSocket,
  protocol: string,
  sandboxId: string,
  ports: number[],
  runtime: StreamingRuntime,
  logger: Logger,
): Promise<void> {
  const channels = new WebSocketChannels(ws, { encoding: PORT_FORWARD_WEBSOCKET_PROTOCOLS[protocol] ?? 'binary', supportsClose: false });
  await Promise.all(
    ports.map(async (port, i) => {
      const dataChannel = 2 * i;
      const errorChannel = 2 * i + 1;
      const stream = channelDuplex(channels, dataChannel);
      await channels.send(dataChannel, portBytes(port));
      await channels.send(errorChannel, portBytes(port));
      try {
        await runtime.portForward({ sandboxId, port, stream, signal: channels.signal });
      } catch (err) {
        logger.warn('port-forward failed', { sandboxId, port, error: messageOf(err) });
        await channels.send(errorChannel, Buffer.from(`error forwarding port ${port} to pod ${sandboxId}, uid : ${messageOf(err)}`));
      } finally {
        stream.destroy();
      }
    }),
  );
  await channels.close();
}
