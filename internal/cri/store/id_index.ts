// Unique-prefix lookup of 64-hex IDs (containerd's truncindex): RPCs accept any unambiguous prefix.
import { invalidArgument, notFound } from '../../errdefs/errors';

export function resolveIdPrefix(ids: Iterable<string>, query: string, what: string): string {
  if (query === '') throw invalidArgument(`${what} ID must not be empty`);
  let match: string | undefined;
  for (const id of ids) {
    if (id === query) return id;
    if (id.startsWith(query)) {
      if (match !== undefined) throw invalidArgument(`${what} ID prefix "${query}" is ambiguous`);
      match = id;
    }
  }
  if (match === undefined) throw notFound(`${what} "${query}" not found`);
  return match;
}
