// Columns that hold JSON: one place that encodes and decodes them.
import { DatabaseCorruptError } from './errors';

export const toJSON = (value: unknown): string => JSON.stringify(value ?? null);

/** Decodes a JSON column; text that is not JSON is a damaged database, named down to the row. */
export function fromJSON<T>(text: string, table: string, key: string, column: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (err) {
    throw new DatabaseCorruptError(`${table} row "${key}", column ${column}: ${(err as Error).message}`, undefined, { cause: err });
  }
}
