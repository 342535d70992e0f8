// Bounds on error texts. Part of an error's text often comes from another program (a shim's or
// runc's stderr, a CNI plugin's JSON, a registry's body), so its length is not berth's to choose,
// and Node's HTTP/2 cannot send a header field over 64 KiB: a longer grpc-message trailer never
// reached the client, and stalled every other call on its connection until it was dropped.
// Clipped texts keep their head and their tail, where programs say what they did and what failed.

/** The most of another program's output one error carries. */
export const MAX_QUOTED_CHARS = 4096;
/** The most of any error's text a gRPC answer or a log line carries. */
export const MAX_ERROR_CHARS = 16_384;

/** A high surrogate (the first half of a pair) at `i`. */
const isHighSurrogate = (text: string, i: number): boolean => {
  const c = text.charCodeAt(i);
  return c >= 0xd800 && c <= 0xdbff;
};

/**
 * `text` if it has at most `max` UTF-16 code units, else its head and tail around a note of what
 * was left out, at most `max` units in all. Never splits a surrogate pair.
 */
export function clipText(text: string, max = MAX_QUOTED_CHARS): string {
  if (text.length <= max) return text;
  const note = (left: number) => ` … (${left} characters left out) … `;
  const room = Math.max(0, max - note(text.length).length);
  let headEnd = Math.ceil(room / 2);
  let tailStart = text.length - (room - headEnd);
  if (headEnd > 0 && isHighSurrogate(text, headEnd - 1)) headEnd--;
  if (tailStart < text.length && isHighSurrogate(text, tailStart - 1)) tailStart++;
  return `${text.slice(0, headEnd)}${note(tailStart - headEnd)}${text.slice(tailStart)}`;
}

/** What grpc-js sends as grpc-message: encodeURI of the details, which throws on a lone surrogate. */
const MAX_ENCODED_MESSAGE = 48 * 1024;

/**
 * An error's text as a gRPC status message: well-formed, clipped, and short enough once
 * percent-encoded (up to 9 characters for one code unit) to go out as one header field.
 */
export function grpcMessageText(text: string): string {
  let max = MAX_ERROR_CHARS;
  let clipped = clipText(text.toWellFormed(), max);
  while (encodeURI(clipped).length > MAX_ENCODED_MESSAGE) {
    max = Math.floor(max / 2);
    clipped = clipText(clipped, max);
  }
  return clipped;
}
