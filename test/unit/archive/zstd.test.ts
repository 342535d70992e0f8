// zstd layers on Node 20 (no zlib zstd): decompressed through the zstd tool, its failures reported
// and its process never left behind.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { decompressed } from '../../../internal/archive/decompress';

async function* chunked(data: Buffer, size = 64 * 1024): AsyncGenerator<Buffer> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** This process's zstd children still running. */
function zstdChildren(): number[] {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .filter((n) => {
      try {
        const stat = readFileSync(`/proc/${n}/stat`, 'latin1');
        const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return stat.includes('(zstd)') && Number(ppid) === process.pid && state !== 'Z';
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('zstd layers', () => {
  const original = Buffer.from(Array.from({ length: 200_000 }, (_, i) => `line ${i}\n`).join(''));
  const compressed = execFileSync('zstd', ['-c', '-q'], { input: original, maxBuffer: 64 << 20 });

  it('are decompressed, whatever the Node', async () => {
    const { stream, compression } = await decompressed(chunked(compressed));
    expect(compression).toBe('zstd');
    expect((await readAll(stream)).equals(original)).toBe(true);
  });

  it('that are corrupt fail with what zstd said', async () => {
    const bad = Buffer.concat([compressed.subarray(0, 64), Buffer.alloc(4096, 0x55)]);
    const { stream } = await decompressed(chunked(bad));
    await expect(readAll(stream)).rejects.toThrow(/zstd|corrupt|Unknown frame/i);
  });

  it('read only in part leave no decompressor running', async () => {
    const { stream } = await decompressed(chunked(compressed, 4096));
    for await (const part of stream) {
      expect((part as Buffer).length).toBeGreaterThan(0);
      break; // an abandoned pull
    }
    for (let i = 0; i < 1000 && zstdChildren().length > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(zstdChildren()).toEqual([]);
  });
});
