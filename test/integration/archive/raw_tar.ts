// Tar bytes written by hand, for what tar-stream's packer cannot express: PAX records with binary
// values, GNU long names, base-256 numbers, broken checksums.
export interface RawEntry {
  /** A string is written as UTF-8; a Buffer as its bytes (names need not be UTF-8). */
  name: string | Buffer;
  /** Typeflag character: '0' file, '5' dir, 'x' PAX header, 'L' GNU long name, ... */
  typeflag: string;
  data?: Buffer;
  mode?: number;
  uid?: number;
  /** Write uid in GNU base-256 instead of octal. */
  uidBase256?: boolean;
  mtime?: number;
  /** The size field, when it must differ from data's length (a header that lies). */
  size?: number;
  linkname?: string | Buffer;
}

function writeName(block: Buffer, name: string | Buffer, offset: number): void {
  if (typeof name === 'string') block.write(name, offset, 100, 'utf8');
  else name.copy(block, offset, 0, Math.min(100, name.length));
}

const octal = (n: number, width: number): string => n.toString(8).padStart(width - 1, '0') + '\0';

export function rawHeader(e: RawEntry): Buffer {
  const block = Buffer.alloc(512);
  writeName(block, e.name, 0);
  block.write(octal(e.mode ?? 0o644, 8), 100, 'latin1');
  if (e.uidBase256) {
    block[108] = 0x80;
    block.writeUIntBE(e.uid ?? 0, 108 + 2, 6);
  } else {
    block.write(octal(e.uid ?? 0, 8), 108, 'latin1');
  }
  block.write(octal(0, 8), 116, 'latin1');
  block.write(octal(e.size ?? e.data?.length ?? 0, 12), 124, 'latin1');
  block.write(octal(e.mtime ?? 1_600_000_000, 12), 136, 'latin1');
  block.write(e.typeflag, 156, 'latin1');
  if (e.linkname !== undefined) writeName(block, e.linkname, 157);
  block.write('ustar\x0000', 257, 'latin1');
  block.write('        ', 148, 'latin1');
  let sum = 0;
  for (const b of block) sum += b;
  block.write(octal(sum, 7) + ' ', 148, 'latin1');
  return block;
}

export function rawTar(entries: readonly RawEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    parts.push(rawHeader(e));
    if (e.data && e.data.length > 0) {
      parts.push(e.data, Buffer.alloc((512 - (e.data.length % 512)) % 512));
    }
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

/** One PAX record, "<len> <key>=<value>\n", the value as raw bytes. */
export function paxRecord(key: string, value: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(` ${key}=`), value, Buffer.from('\n')]);
  let len = body.length + 1;
  while (String(len).length + body.length !== len) len++;
  return Buffer.concat([Buffer.from(String(len)), body]);
}
