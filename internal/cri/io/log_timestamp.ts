// Go's time.RFC3339Nano, which kubelet parses: nanosecond fraction with trailing zeros trimmed.
// JS clocks give milliseconds; process.hrtime supplies the sub-millisecond digits so lines
// written in one millisecond still sort.

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export function rfc3339Nano(date: Date = new Date(), subMillisNanos = Number(process.hrtime.bigint() % 1_000_000n)): string {
  const nanos = date.getUTCMilliseconds() * 1_000_000 + subMillisNanos;
  const fraction = nanos === 0 ? '' : '.' + String(nanos).padStart(9, '0').replace(/0+$/, '');
  return (
    `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}` +
    `T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}${fraction}Z`
  );
}
