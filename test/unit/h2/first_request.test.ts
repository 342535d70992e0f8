// FirstRequestReader (internal/h2/first_request.ts) reads each frame once, whatever the chunks: a
// client's bytes given whole or a byte at a time come to the same verdict and the same bytes passed
// on, and the acknowledgement of our SETTINGS is dropped only when it came after ours went out.
import { encodeLiteralBlock, frame, PREFACE } from '../../../internal/h2/authority_rewrite';
import { FirstRequestReader, type Reading } from '../../../internal/h2/first_request';

const SETTINGS = frame(4, 0, 0, Buffer.alloc(0));
const ACK = frame(4, 1, 0, Buffer.alloc(0));
const WINDOW_UPDATE = frame(8, 0, 0, Buffer.from([0, 0, 0x10, 0]));
const request = (authority: string) =>
  frame(1, 0x4 | 0x1, 1, encodeLiteralBlock([{ name: ':method', value: 'POST' }, { name: ':path', value: '/x' }, { name: ':authority', value: authority }]));

/** Feeds `before` (then marks our SETTINGS sent) and `after` in chunks of `size` bytes; the last reading. */
function feed(before: Buffer, after: Buffer, size: number): Reading {
  const reader = new FirstRequestReader();
  let last: Reading | undefined;
  const push = (bytes: Buffer) => {
    for (let at = 0; at < bytes.length; at += size) last = reader.push(bytes.subarray(at, at + size));
  };
  push(before);
  reader.settingsSent = true;
  push(after);
  return last!;
}

describe('FirstRequestReader', () => {
  it.each([1, 7, 1 << 20])('hands a client that waited for our SETTINGS on directly, their acknowledgement dropped (chunks of %i)', (size) => {
    const reading = feed(Buffer.concat([PREFACE, SETTINGS]), Buffer.concat([WINDOW_UPDATE, ACK, request('localhost')]), size);
    expect(reading.verdict).toBe('direct');
    expect(reading.ackToCome).toBe(false);
    expect(reading.forward).toEqual(Buffer.concat([PREFACE, SETTINGS, WINDOW_UPDATE, request('localhost')]));
  });

  it.each([1, 5, 1 << 20])('bridges a client sending the socket path, an acknowledgement still to come (chunks of %i)', (size) => {
    const reading = feed(Buffer.concat([PREFACE, SETTINGS]), request('/run/berth/berth.sock'), size);
    expect(reading).toMatchObject({ verdict: 'bridge', ackToCome: true, requestBegun: true });
    expect(reading.forward).toEqual(Buffer.concat([PREFACE, SETTINGS, request('/run/berth/berth.sock')]));
  });

  it('passes on an acknowledgement sent before ours went out, which cannot be of ours', () => {
    const reading = feed(Buffer.concat([PREFACE, SETTINGS, ACK]), Buffer.concat([ACK, request('localhost')]), 1);
    expect(reading.verdict).toBe('direct');
    expect(reading.forward).toEqual(Buffer.concat([PREFACE, SETTINGS, ACK, request('localhost')]));
  });

  it('stays undecided through a header block trickled a byte at a time, saying a request has begun', () => {
    const reader = new FirstRequestReader();
    const bytes = Buffer.concat([PREFACE, SETTINGS, request('localhost')]);
    const begun: boolean[] = [];
    for (let at = 0; at < bytes.length - 1; at++) {
      const reading = reader.push(bytes.subarray(at, at + 1));
      expect(reading.verdict).toBeUndefined();
      begun.push(reading.requestBegun);
    }
    expect(begun.indexOf(true)).toBe(PREFACE.length + SETTINGS.length + 8); // once the HEADERS frame's 9-byte header is in
    expect(reader.push(bytes.subarray(bytes.length - 1)).verdict).toBe('direct');
  });

  it('refuses at the first byte that is not the preface', () => {
    const reader = new FirstRequestReader();
    expect(reader.push(PREFACE.subarray(0, 3)).verdict).toBeUndefined();
    expect(reader.push(Buffer.from('X')).verdict).toBe('refuse');
  });
});
