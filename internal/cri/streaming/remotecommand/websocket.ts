// Exec/attach over WebSocket, as kubelet's remotecommand websocket handler: channels 0 stdin,
// 1 stdout, 2 stderr, 3 error, 4 resize. v4/v5 report a JSON status, older ones plain text; v5
// lets the client close stdin. An empty message on the lowest channel we write tells the client
// the session is ready.
import type { WebSocket } from 'ws';
import { WebSocketChannels, type ChannelEncoding } from '../websocket_channels';
import { decodeResizeEvents } from '../resize';
import { encodeStatus } from '../status';
import { endWritable, type RemoteCommandOptions, type RemoteCommandSession } from './session';

const STDIN = 0;
const STDOUT = 1;
const STDERR = 2;
const ERROR = 3;
const RESIZE = 4;

interface ProtocolTraits {
  encoding: ChannelEncoding;
  json: boolean;
  supportsClose: boolean;
}

/** Subprotocols we accept, best first ("" = the client named none: binary, v1 semantics). */
export const REMOTE_COMMAND_WEBSOCKET_PROTOCOLS: Readonly<Record<string, ProtocolTraits>> = {
  'v5.channel.k8s.io': { encoding: 'binary', json: true, supportsClose: true },
  'v4.channel.k8s.io': { encoding: 'binary', json: true, supportsClose: false },
  'v4.base64.channel.k8s.io': { encoding: 'base64', json: true, supportsClose: false },
  'channel.k8s.io': { encoding: 'binary', json: false, supportsClose: false },
  'base64.channel.k8s.io': { encoding: 'base64', json: false, supportsClose: false },
  '': { encoding: 'binary', json: false, supportsClose: false },
};

export function openWebSocketRemoteCommand(ws: WebSocket, protocol: string, opts: RemoteCommandOptions): RemoteCommandSession {
  const traits = REMOTE_COMMAND_WEBSOCKET_PROTOCOLS[protocol] ?? REMOTE_COMMAND_WEBSOCKET_PROTOCOLS[''];
  const channels = new WebSocketChannels(ws, { encoding: traits.encoding, supportsClose: traits.supportsClose });
  const stdin = opts.stdin ? channels.readable(STDIN) : undefined;
  const resize = opts.tty ? channels.readable(RESIZE) : undefined;
  const stdout = opts.stdout ? channels.writable(STDOUT) : undefined;
  const stderr = opts.stderr && !opts.tty ? channels.writable(STDERR) : undefined;
  void channels.send(stdout ? STDOUT : stderr ? STDERR : ERROR, Buffer.alloc(0));
  return {
    protocol: protocol || '(none)',
    stdin,
    stdout,
    stderr,
    resize: resize ? decodeResizeEvents(resize) : undefined,
    signal: channels.signal,
    async writeStatus(status) {
      const bytes = encodeStatus(status, traits.json ? 'json' : 'text');
      if (bytes.length > 0) await channels.send(ERROR, bytes);
    },
    async close() {
      await Promise.all([endWritable(stdout), endWritable(stderr)]);
      await channels.close();
    },
    destroy: () => channels.terminate(),
  };
}
