// A wait's own bound, shortened to what is left before its caller's deadline. Lower layers keep
// their fixed bounds (a shim's Create, a CNI plugin), and a CRI call's deadline (the kubelet's)
// caps them, as containerd's calls run under the request's context: a caller that gave up then
// hears nothing later than it would have waited, and the undo starts while it can still matter.

/** `boundMs`, or what is left before `deadlineMs` (ms since the epoch) when that is sooner; at least 1. */
export function boundedBy(boundMs: number, deadlineMs: number | undefined, now = Date.now()): number {
  if (deadlineMs === undefined || !Number.isFinite(deadlineMs)) return boundMs;
  return Math.max(1, Math.min(boundMs, deadlineMs - now));
}
