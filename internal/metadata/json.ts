// Columns that hold JSON: one place that encodes and decodes them.
export const toJSON = (value: unknown): string => JSON.stringify(value ?? null);
export function fromJSON<T>(text: string): T {
  return JSON.parse(text) as T;
}
