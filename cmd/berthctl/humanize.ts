// The human forms crictl prints (docker/go-units): "3 minutes ago", "4.86MB", 13-character IDs.

/** go-units HumanDuration. */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 1) return 'Less than a second';
  if (seconds === 1) return '1 second';
  if (seconds < 60) return `${seconds} seconds`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes === 1) return 'About a minute';
  if (minutes < 60) return `${minutes} minutes`;
  const hours = Math.round(ms / 3_600_000);
  if (hours === 1) return 'About an hour';
  if (hours < 48) return `${hours} hours`;
  if (hours < 24 * 7 * 2) return `${Math.floor(hours / 24)} days`;
  if (hours < 24 * 30 * 2) return `${Math.floor(hours / 24 / 7)} weeks`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24 / 30)} months`;
  return `${Math.floor(ms / 3_600_000 / 24 / 365)} years`;
}

/** "<duration> ago" for a CRI timestamp in nanoseconds (a decimal string). */
export function ago(nanos: string, now = Date.now()): string {
  return `${humanDuration(now - Number(BigInt(nanos) / 1_000_000n))} ago`;
}

const DECIMAL_UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];

/** go-units HumanSizeWithPrecision(size, 3): decimal units, three significant digits. */
export function humanSize(bytes: number): string {
  let size = bytes;
  let unit = 0;
  while (size >= 1000 && unit < DECIMAL_UNITS.length - 1) {
    size /= 1000;
    unit++;
  }
  return `${Number(size.toPrecision(3))}${DECIMAL_UNITS[unit]}`;
}

const TRUNCATED_ID_LENGTH = 13;

/** crictl's getTruncatedID: `prefix` dropped, then at most 13 characters. */
export function truncateId(id: string, prefix = ''): string {
  const bare = id.startsWith(prefix) ? id.slice(prefix.length) : id;
  return bare.slice(0, TRUNCATED_ID_LENGTH);
}

/** RFC 3339 with nanoseconds in UTC, as Go's time.RFC3339Nano prints a CRI timestamp. */
export function rfc3339Nano(nanos: string): string {
  const n = BigInt(nanos);
  const seconds = n / 1_000_000_000n;
  const fraction = (n % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  const base = new Date(Number(seconds) * 1000).toISOString().replace(/\.\d{3}Z$/, '');
  return `${base}${fraction ? `.${fraction}` : ''}Z`;
}
