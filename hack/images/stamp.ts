// A stamp beside each generated file records the inputs it was built from and its size; when the
// inputs are unchanged and the file is whole, the build skips it, so `make test` stays fast.
import { readFile, stat } from 'node:fs/promises';
import { writeFileAtomic } from './atomic-file';
import { canonicalJson, type JsonValue } from './canonical-json';

export type StampInputs = { [key: string]: string };

export const stampPathOf = (file: string): string => `${file}.stamp`;

export async function isUpToDate(file: string, inputs: StampInputs): Promise<boolean> {
  const [text, info] = await Promise.all([
    readFile(stampPathOf(file), 'utf8').catch(() => undefined),
    stat(file).catch(() => undefined),
  ]);
  if (text === undefined || info === undefined) return false;
  return text === stampText(inputs, info.size);
}

/** Written after `file` is in place, so a stamp never vouches for a file that is not there. */
export async function writeStamp(file: string, inputs: StampInputs): Promise<void> {
  const info = await stat(file);
  await writeFileAtomic(stampPathOf(file), Buffer.from(stampText(inputs, info.size)));
}

function stampText(inputs: StampInputs, size: number): string {
  const value: { [key: string]: JsonValue } = { inputs, size };
  return `${canonicalJson(value)}\n`;
}
