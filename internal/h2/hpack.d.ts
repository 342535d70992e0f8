// The part of hpack.js (a dependency of spdy-transport, used directly here) berth calls.
declare module 'hpack.js' {
  interface DecodedHeader {
    name: string;
    value: string;
    neverIndex: boolean;
  }
  interface Decompressor {
    write(data: Buffer): boolean;
    execute(cb?: (err: Error | null) => void): void;
    read(): DecodedHeader | null;
    updateTableSize(size: number): void;
    on(event: 'error', fn: (err: Error) => void): this;
  }
  const hpack: {
    decompressor: { create(options: { table: { size: number } }): Decompressor };
  };
  export = hpack;
}
