// The pure pieces: SPDY frame splitting, header blocks through the shared zlib contexts, and the
// resize decoder.
import { PassThrough } from 'node:stream';
import { FrameReader, FrameType, controlFrame, dataFrame, decodeHeaderBlock, encodeHeaderBlock } from '../../../internal/cri/streaming/spdy/frames';
import { HeaderCompressor, HeaderDecompressor } from '../../../internal/cri/streaming/spdy/header_codec';
import { JsonObjectSplitter, decodeResizeEvents } from '../../../internal/cri/streaming/resize';

describe('SPDY frames', () => {
  it('splits a byte stream into frames whatever the chunking', () => {
    const bytes = Buffer.concat([
      controlFrame(FrameType.PING, 0, Buffer.from([0, 0, 0, 1])),
      dataFrame(3, 1, Buffer.from('hello')),
      dataFrame(5, 0, Buffer.alloc(0)),
    ]);
    for (const size of [1, 3, 8, 13, bytes.length]) {
      const reader = new FrameReader();
      const frames = [];
      for (let i = 0; i < bytes.length; i += size) frames.push(...reader.push(bytes.subarray(i, i + size)));
      expect(frames).toEqual([
        { control: true, version: 3, type: FrameType.PING, flags: 0, body: Buffer.from([0, 0, 0, 1]) },
        { control: false, streamId: 3, flags: 1, data: Buffer.from('hello') },
        { control: false, streamId: 5, flags: 0, data: Buffer.alloc(0) },
      ]);
    }
  });

  it('round-trips header blocks through compression, block after block on one context', async () => {
    const compressor = new HeaderCompressor();
    const decompressor = new HeaderDecompressor();
    try {
      for (const type of ['error', 'stdin', 'stdout', 'stderr', 'resize']) {
        const headers = { streamtype: type, port: '8080', requestid: '7' };
        const wire = await compressor.compress(encodeHeaderBlock(headers));
        expect(decodeHeaderBlock(await decompressor.decompress(wire))).toEqual(headers);
      }
    } finally {
      compressor.close();
      decompressor.close();
    }
  });

  it('lowercases names and keeps the first of NUL-joined values', () => {
    expect(decodeHeaderBlock(encodeHeaderBlock({ StreamType: 'data\0error' }))).toEqual({ streamtype: 'data' });
  });
});

describe('resize events', () => {
  it('splits concatenated JSON objects across chunk boundaries', () => {
    const s = new JsonObjectSplitter();
    expect(s.push('{"Width":80,')).toEqual([]);
    expect(s.push('"Height":24}\n{"Width":1')).toEqual(['{"Width":80,"Height":24}']);
    expect(s.push('00,"Height":"}"}{}')).toEqual(['{"Width":100,"Height":"}"}', '{}']);
  });

  it('decodes sizes until the stream ends or carries garbage', async () => {
    const source = new PassThrough();
    source.end('{"Width":80,"Height":24}\n{"Width":120,"Height":40}\n{"Width":-1}');
    const got = [];
    for await (const size of decodeResizeEvents(source)) got.push(size);
    expect(got).toEqual([
      { width: 80, height: 24 },
      { width: 120, height: 40 },
    ]);
  });
});
