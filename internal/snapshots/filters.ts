// The subset of containerd's filter syntax the snapshotter's Walk needs:
//   kind==committed,labels."a.b"==x     (a comma is AND; several filter strings are OR'd)
import { invalidArgument } from '../errdefs/errors';
import type { Info } from './types';

type Op = '==' | '!=' | '~=' | 'exists';
interface Clause {
  field: string[];
  op: Op;
  value: string;
}

export type InfoPredicate = (info: Info) => boolean;

export function parseFilters(filters: readonly string[]): InfoPredicate {
  const alternatives = filters.filter((f) => f.trim() !== '').map(parseFilter);
  if (alternatives.length === 0) return () => true;
  return (info) => alternatives.some((all) => all.every((c) => matches(c, info)));
}

function parseFilter(filter: string): Clause[] {
  return splitOutsideQuotes(filter, ',').map((clause) => parseClause(clause.trim(), filter));
}

function parseClause(clause: string, filter: string): Clause {
  const m = /^((?:[A-Za-z0-9_.-]+|"(?:[^"\\]|\\.)*")(?:\.(?:[A-Za-z0-9_.-]+|"(?:[^"\\]|\\.)*"))*)\s*(?:(==|!=|~=)\s*(.*))?$/.exec(clause);
  if (!m) throw invalidArgument(`snapshot filter "${filter}": cannot parse "${clause}"`);
  const field = splitOutsideQuotes(m[1] as string, '.').map(unquote);
  const op = (m[2] as Op | undefined) ?? 'exists';
  const value = m[3] === undefined ? '' : unquote(m[3].trim());
  if (op === '~=') {
    try {
      new RegExp(value);
    } catch {
      throw invalidArgument(`snapshot filter "${filter}": bad regular expression "${value}"`);
    }
  }
  const head = field[0];
  if (!['kind', 'name', 'parent', 'labels'].includes(head ?? '') || (head === 'labels' && field.length < 2)) {
    throw invalidArgument(`snapshot filter "${filter}": unknown field "${m[1]}"`);
  }
  return { field, op, value };
}

function fieldValue(field: readonly string[], info: Info): string | undefined {
  switch (field[0]) {
    case 'kind':
      return info.kind;
    case 'name':
      return info.name;
    case 'parent':
      return info.parent;
    default: {
      const key = field.slice(1).join('.');
      return Object.hasOwn(info.labels, key) ? info.labels[key] : undefined;
    }
  }
}

function matches(c: Clause, info: Info): boolean {
  const v = fieldValue(c.field, info);
  switch (c.op) {
    case 'exists':
      return v !== undefined && v !== '';
    case '==':
      return v === c.value;
    case '!=':
      return v !== c.value;
    case '~=':
      return v !== undefined && new RegExp(c.value).test(v);
  }
}

function splitOutsideQuotes(s: string, sep: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] as string;
    if (ch === '\\' && quoted && i + 1 < s.length) {
      current += ch + s[++i];
      continue;
    }
    if (ch === '"') quoted = !quoted;
    if (ch === sep && !quoted) {
      out.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  out.push(current);
  return out;
}

function unquote(s: string): string {
  if (s.length >= 2 && s.startsWith('"') && s.endsWith('"')) return s.slice(1, -1).replace(/\\(.)/g, '$1');
  return s;
}
