import { clipText, grpcMessageText, MAX_ERROR_CHARS } from '../../../internal/errdefs/clip_text';
import { internal } from '../../../internal/errdefs/errors';
import { toServiceError } from '../../../internal/errdefs/grpc';

describe('clipText', () => {
  it('keeps a text that fits as it is', () => {
    expect(clipText('runc: exit status 1', 100)).toBe('runc: exit status 1');
  });

  it('keeps the head and the tail of a long text, and says how much it left out', () => {
    const text = `start: ${'S'.repeat(10_000_000)} :end`;
    const clipped = clipText(text, 4096);
    expect(clipped.length).toBeLessThanOrEqual(4096);
    expect(clipped.startsWith('start: SSS')).toBe(true);
    expect(clipped.endsWith('SSS :end')).toBe(true);
    const left = Number(/\((\d+) characters left out\)/.exec(clipped)?.[1]);
    expect(clipped.length - ` … (${left} characters left out) … `.length + left).toBe(text.length);
  });

  it('never splits a surrogate pair', () => {
    for (let max = 60; max < 80; max++) {
      const clipped = clipText('😀'.repeat(200), max);
      expect(clipped.isWellFormed()).toBe(true);
      expect(clipped.length).toBeLessThanOrEqual(max);
    }
  });
});

describe('grpcMessageText', () => {
  // Node's HTTP/2 sends no header field over 64 KiB; grpc-js percent-encodes the message with encodeURI.
  it.each([
    ['ASCII', 'x'],
    ['three-byte characters', '中'],
    ['surrogate pairs', '😀'],
    ['characters encodeURI escapes', '%'],
  ])('keeps %s under 64 KiB once encoded', (_what, unit) => {
    const text = grpcMessageText(unit.repeat(1_000_000));
    expect(encodeURI(text).length).toBeLessThan(64 * 1024);
    expect(text.length).toBeGreaterThan(1000);
  });

  it('makes a lone surrogate, which encodeURI refuses, a replacement character', () => {
    expect(() => encodeURI(grpcMessageText('bad \ud800 half'))).not.toThrow();
  });

  it('is what an error answers with: a 10 MB shim stderr gives a bounded message naming both ends', () => {
    const err = internal(`shim start failed (exit 1): panic: ${'S'.repeat(10_000_000)} goroutine 1`);
    const details = toServiceError(err).details ?? '';
    expect(details.length).toBeLessThanOrEqual(MAX_ERROR_CHARS);
    expect(details).toMatch(/^shim start failed \(exit 1\): panic: S+ … \(\d+ characters left out\) … S+ goroutine 1$/);
  });
});
