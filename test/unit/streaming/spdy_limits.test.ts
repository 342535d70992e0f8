// The bounds on what a client can make the SPDY codec and the resize decoder hold: frame size,
// header count, inflated header block size, and an unfinished resize object.
import { PassThrough } from 'node:stream';
import { constants, deflateSync } from 'node:zlib';
import spdyDictionaries from 'spdy-transport/lib/spdy-transport/protocol/spdy/dictionary';
import {
  FrameReader,
  FrameType,
  MAX_FRAME_LENGTH,
  MAX_HEADER_BLOCK,
  MAX_HEADER_COUNT,
  controlFrame,
  dataFrame,
  decodeHeaderBlock,
  encodeHeaderBlock,
} from '../../../internal/cri/streaming/spdy/frames';
import { HeaderDecompressor } from '../../../internal/cri/streaming/spdy/header_codec';
import { MAX_RESIZE_OBJECT_LENGTH, decodeResizeEvents } from '../../../internal/cri/streaming/resize';

describe('SPDY limits', () => {
  it('refuses a frame announced over the limit as soon as its header arrives', () => {
    const head = dataFrame(1, 0, Buffer.alloc(0));
    head.writeUIntBE(MAX_FRAME_LENGTH + 1, 5, 3);
    expect(() => new FrameReader().push(head)).toThrow(/over the \d+-byte limit/);
    // The limit itself is fine.
    const reader = new FrameReader();
    expect(reader.push(controlFrame(FrameType.PING, 0, Buffer.alloc(MAX_FRAME_LENGTH)))).toHaveLength(1);
  });

  it('refuses a header block with more headers than the limit', () => {
    const many = Object.fromEntries(Array.from({ length: MAX_HEADER_COUNT + 1 }, (_, i) => [`h${i}`, 'v']));
    expect(() => decodeHeaderBlock(encodeHeaderBlock(many))).toThrow(/header limit/);
    const enough = Object.fromEntries(Array.from({ length: MAX_HEADER_COUNT }, (_, i) => [`h${i}`, 'v']));
    expect(Object.keys(decodeHeaderBlock(encodeHeaderBlock(enough)))).toHaveLength(MAX_HEADER_COUNT);
  });

  it('stops inflating a header block at the limit (a zlib bomb), and the context stays failed', async () => {
    const bomb = deflateSync(Buffer.alloc(64 * MAX_HEADER_BLOCK), { dictionary: spdyDictionaries[3], flush: constants.Z_SYNC_FLUSH });
    expect(bomb.length).toBeLessThan(MAX_FRAME_LENGTH);
    const decompressor = new HeaderDecompressor();
    try {
      await expect(decompressor.decompress(bomb)).rejects.toThrow(/inflates past/);
      await expect(decompressor.decompress(Buffer.alloc(4))).rejects.toThrow(/inflates past/);
    } finally {
      decompressor.close();
    }
  });

  it('ends the resize events at an object that never closes', async () => {
    const source = new PassThrough();
    source.write('{"Width":80,"Height":24}{"Width":"');
    source.write('x'.repeat(MAX_RESIZE_OBJECT_LENGTH));
    const got = [];
    for await (const size of decodeResizeEvents(source)) got.push(size);
    expect(got).toEqual([{ width: 80, height: 24 }]);
    expect(source.destroyed).toBe(true); // nothing keeps reading (and buffering) it
  });
});
