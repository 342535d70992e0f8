// One datagram to a unix socket (notify.c), for systemd's NOTIFY_SOCKET: Node has no unix
// datagram sockets. "@name" is an abstract address.
import { loadAddon } from './addon';

interface NotifyAddon {
  sdNotify(path: string, message: string): void;
}

/** Sends `message` to the datagram socket at `path`; throws an errno-coded Error. */
export function sendNotifyDatagram(path: string, message: string): void {
  loadAddon<NotifyAddon>().sdNotify(path, message);
}
