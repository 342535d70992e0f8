// Names carried as byte strings (one character per byte) and shown to people as the UTF-8 they
// most often are, without garbling text that is not such a name.
import { byteString, bytesOf, shown } from '../../../internal/archive/byte_names';

describe('byte names', () => {
  it('round-trips any bytes, UTF-8 or not', () => {
    const raw = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2f, 0xff, 0x00, 0x80]);
    expect(bytesOf(byteString(raw))).toEqual(raw);
  });

  it('shows a UTF-8 name as itself, and leaves other text as it is', () => {
    expect(shown(`layer entry "${byteString(Buffer.from('grüße/x'))}": escapes`)).toBe('layer entry "grüße/x": escapes');
    expect(shown('a path with é in it')).toBe('a path with é in it'); // not a byte string: é alone is not UTF-8
    expect(shown(byteString(Buffer.from([0x61, 0xe9])))).toBe('a\u00e9'); // a latin-1 name: shown as its bytes read
    expect(shown('plain ascii')).toBe('plain ascii');
    expect(shown('wide ✓ text')).toBe('wide ✓ text');
  });
});
