// `[metrics] address`, as containerd's: "host:port" (an IPv6 host in brackets), "" for off.

export interface ListenAddress {
  /** Empty for every interface (":1338"). */
  host: string;
  port: number;
}

const FORM = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]\s]*):([0-9]{1,5})$/;

/** The host and port of "host:port"; undefined when `address` does not have that form. */
export function parseListenAddress(address: string): ListenAddress | undefined {
  const m = FORM.exec(address);
  if (!m) return undefined;
  const port = Number(m[2]);
  if (port > 65535) return undefined;
  return { host: m[1]!.replace(/^\[(.*)\]$/, '$1'), port };
}
