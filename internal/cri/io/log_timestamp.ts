// Go's time.RFC3339Nano, which kubelet parses: nanosecond fraction with trailing zeros trimmed.
// The time is the wall clock carried forward by the monotonic one (process.hrtime), so the records
// of a stream never step back: Date.now()'s milliseconds with hrtime's sub-millisecond digits did,
// by up to 1 ms, when the two rolled over apart (containerd's time.Now() never does).

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** The wall clock's distance from the monotonic one, in ns; re-read when the wall clock was set. */
let wallOffset: bigint | undefined;
const RESYNC_NS = 1_000_000_000n;

/** Nanoseconds since the epoch: monotonic, and within 1 s of Date.now() (a clock set re-syncs it). */
export function wallNanos(): bigint {
  const mono = process.hrtime.bigint();
  const wall = BigInt(Date.now()) * 1_000_000n;
  const drift = wallOffset === undefined ? RESYNC_NS : mono + wallOffset - wall;
  if (drift >= RESYNC_NS || drift <= -RESYNC_NS) wallOffset = wall - mono;
  return mono + wallOffset!;
}

export function rfc3339Nano(nanosSinceEpoch: bigint = wallNanos()): string {
  const date = new Date(Number(nanosSinceEpoch / 1_000_000_000n) * 1000);
  const nanos = Number(nanosSinceEpoch % 1_000_000_000n);
  const fraction = nanos === 0 ? '' : '.' + String(nanos).padStart(9, '0').replace(/0+$/, '');
  return (
    `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}` +
    `T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}${fraction}Z`
  );
}
