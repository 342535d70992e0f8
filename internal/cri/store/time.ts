// CRI timestamps are int64 nanoseconds since the epoch; they travel as decimal strings
// (proto longs: String) because they exceed Number's exact range.
export type Nanos = string;

export function nowNanos(): Nanos {
  return (BigInt(Date.now()) * 1_000_000n).toString();
}

export function nanosToDate(nanos: Nanos): Date {
  return new Date(Number(BigInt(nanos) / 1_000_000n));
}

export function dateToNanos(date: Date): Nanos {
  return (BigInt(date.getTime()) * 1_000_000n).toString();
}

export const isSet = (nanos: Nanos | undefined): boolean => nanos !== undefined && nanos !== '' && nanos !== '0';
