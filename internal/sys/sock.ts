// socketpair(2) from the addon (sock.c): two connected unix stream sockets as net.Sockets.
import { Socket } from 'node:net';
import { loadAddon } from './addon';

interface SockAddon {
  socketpair(): [number, number];
}

/**
 * A connected pair of unix stream sockets. Each end is a real net.Socket backed by its fd (a
 * libuv pipe handle), so Node's HTTP/2 core drives it natively rather than through a JS stream.
 * `allowHalfOpen` is net.Socket's option for each end: its 'end' does not end its writable side.
 */
export function socketPair(allowHalfOpen: [boolean, boolean] = [false, false]): [Socket, Socket] {
  const [a, b] = loadAddon<SockAddon>().socketpair();
  return [
    new Socket({ fd: a, readable: true, writable: true, allowHalfOpen: allowHalfOpen[0] }),
    new Socket({ fd: b, readable: true, writable: true, allowHalfOpen: allowHalfOpen[1] }),
  ];
}
