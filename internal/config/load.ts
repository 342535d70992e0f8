// Reading berth.toml: TOML text -> plain object -> schema. Every error names the file and the key
// path (`config /etc/berth/berth.toml: cri.runtimes.runc.options.BinaryName: expected string, got
// number`) so the operator can go straight to the line to fix.
import { readFileSync } from 'node:fs';
import { parse as parseToml, TomlError } from 'smol-toml';
import type { z } from 'zod/v3';
import { invalidArgument } from '../errdefs/errors';
import { berthConfigSchema, type BerthConfig } from './schema';

/** The configuration berthd runs with when no file is given. */
export function defaultConfig(): BerthConfig {
  return berthConfigSchema.parse({});
}

/** Parses and validates TOML text; `source` names it in errors (a path, or e.g. "<flags>"). */
export function parseConfig(text: string, source: string): BerthConfig {
  let raw: unknown;
  try {
    raw = parseToml(text);
  } catch (err) {
    if (err instanceof TomlError) {
      throw invalidArgument(`config ${source}: line ${err.line}, column ${err.column}: ${firstLine(err.message)}`, err);
    }
    throw invalidArgument(`config ${source}: ${String(err)}`, err);
  }
  return validateConfig(raw, source);
}

/** Validates an already-parsed object (parsed TOML, or a config with flags applied). */
export function validateConfig(raw: unknown, source: string): BerthConfig {
  const result = berthConfigSchema.safeParse(raw);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => describeIssue(issue, raw));
  throw invalidArgument(`config ${source}: ${problems.join('; ')}`);
}

/** Reads the file at `path`; with no path, the defaults. A named file that is missing is an error. */
export function loadConfig(path?: string): BerthConfig {
  if (path === undefined) return defaultConfig();
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    throw invalidArgument(`config ${path}: cannot read: ${code}`, err);
  }
  return parseConfig(text, path);
}

function describeIssue(issue: z.ZodIssue, raw: unknown): string {
  const at = keyPath(issue.path);
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((k) => `${keyPath([...issue.path, k])}: unknown key`).join('; ');
    case 'invalid_type':
      // A value of the wrong type for an enum: zod names the options as `'a' | 'b'`.
      if (/^'.*'$/.test(issue.expected)) return oneOf(at, issue.expected.split(' | ').map((o) => o.slice(1, -1)), raw, issue.path);
      return `${at}: expected ${tomlTypeName(issue.expected)}, got ${typeOfValue(valueAt(raw, issue.path))}`;
    case 'invalid_enum_value':
      return oneOf(at, issue.options, raw, issue.path);
    default:
      return `${at}: ${issue.message}`;
  }
}

function oneOf(at: string, options: readonly (string | number)[], raw: unknown, path: readonly PropertyKey[]): string {
  return `${at}: expected one of ${options.map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(valueAt(raw, path))}`;
}

function keyPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(top level)';
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : String(p))).join('.').replace(/\.\[/g, '[');
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = raw;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

// In TOML words: a zod "object" is a table.
function tomlTypeName(zodType: string): string {
  return zodType === 'object' || zodType === 'record' ? 'table' : zodType;
}

function typeOfValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'array';
  if (v instanceof Date) return 'date';
  if (typeof v === 'bigint') return 'number';
  if (typeof v === 'object') return v === null ? 'null' : 'table';
  return typeof v;
}

function firstLine(s: string): string {
  return s.split('\n')[0] ?? s;
}
