// Reading CRI scalar fields. The generated types carry int64 as decimal strings (longs=String) and
// `bytes` as Buffers; these helpers turn them into numbers/strings and name the field on error.
import { invalidArgument } from '../../errdefs/errors';

/** An int64 field as a number; "" (proto default) is 0. Rejects values JSON cannot carry exactly. */
export function int64(value: string | number | null | undefined, field: string): number {
  if (value === undefined || value === null || value === '') return 0;
  const text = String(value);
  if (!/^-?\d+$/.test(text)) throw invalidArgument(`${field}: ${JSON.stringify(text)} is not an integer`);
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw invalidArgument(`${field}: ${text} is out of range`);
  return n;
}

/** A KeyValue value (bytes on our wire, string in upstream CRI) as text. */
export function text(value: Buffer | Uint8Array | string | null | undefined): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  return Buffer.from(value).toString('utf8');
}

/** True when `p` is absolute and has no ".." segment. */
export function isCleanAbsolute(p: string): boolean {
  return p.startsWith('/') && !p.split('/').includes('..');
}

/** Lexical clean of an absolute path: collapses "//", "/./" and a trailing "/". */
export function cleanPath(p: string): string {
  const parts: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return (p.startsWith('/') ? '/' : '') + parts.join('/') || (p.startsWith('/') ? '/' : '.');
}

/** path.Match-style glob for annotation keys: `*` and `?` never cross "/", `[...]` classes, `\` escapes. */
export function globMatch(pattern: string, name: string): boolean {
  let re = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '\\' && i + 1 < pattern.length) re += escapeRegExp(pattern[++i] as string);
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end < 0) return false;
      let cls = pattern.slice(i + 1, end);
      if (cls.startsWith('^')) cls = '^' + cls.slice(1).replace(/[\]\\]/g, '\\$&');
      else cls = cls.replace(/[\]\\]/g, '\\$&');
      re += `[${cls}]`;
      i = end;
    } else re += escapeRegExp(c);
  }
  return new RegExp(re + '$').test(name);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Pod/container annotations whose keys match one of the runtime's patterns. */
export function passthroughAnnotations(source: Record<string, string> | undefined, patterns: readonly string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (patterns === undefined || patterns.length === 0) return out;
  for (const [k, v] of Object.entries(source ?? {})) {
    if (patterns.some((p) => globMatch(p, k))) out[k] = v;
  }
  return out;
}
