// Which filter a CRI request carries, by the names of the filter's fields it sets: the gRPC floor
// keeps one answer per method and shape, so the lists the kubelet sends filtered (by state, sandbox
// ID, pod-UID label) are answered as berthd answered each, not all with the unfiltered answer.
// The same for a request as the bench builds it and as grpc-js decodes it with defaults filled in
// (an unset field decodes as null, '', {} or []). The floor computes it on every call: ~0.01 us
// without a filter, ~0.27 us with one, against the ~700 us of a call.

function isSet(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return false;
  return typeof value !== 'object' || Object.keys(value).length > 0;
}

/** The set fields of `request.filter`, sorted and comma-joined; '' for a request without a filter. */
export function requestShape(request: unknown): string {
  const filter = (request as { filter?: unknown } | null)?.filter;
  if (filter === null || typeof filter !== 'object') return '';
  return Object.entries(filter)
    .filter(([, value]) => isSet(value))
    .map(([name]) => name)
    .sort()
    .join(',');
}

/** The floor's key for an answer: service, method and the request's filter shape. */
export function answerKey(service: string, method: string, request: unknown): string {
  const shape = requestShape(request);
  return shape === '' ? `${service}/${method}` : `${service}/${method}?${shape}`;
}
