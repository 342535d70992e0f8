// Kubernetes resource quantities ("10M", "1.5Gi", "2e6"), as k8s.io/apimachinery's ParseQuantity
// reads them and Quantity.Value() rounds them: the integer value, rounded up. Exact (BigInt), since
// "1.1k" must be 1100, not the 1101 a float would round up to.
import { invalidArgument } from '../errdefs/errors';

const BINARY_SI: Record<string, bigint> = { Ki: 1n << 10n, Mi: 1n << 20n, Gi: 1n << 30n, Ti: 1n << 40n, Pi: 1n << 50n, Ei: 1n << 60n };
const DECIMAL_SI: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

// apimachinery's grammar: sign, digits with an optional fraction, then a binary SI suffix, a
// decimal SI suffix or a decimal exponent ("e3", "E-2"). No spaces.
const QUANTITY = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/;

// Longer strings are no quantity anyone means; the bound keeps BigInt work on client input small.
const MAX_QUANTITY_LENGTH = 64;
// Bound of the decimal exponent actually applied; keeps 10n ** e small.
const MAX_EXPONENT = 80;

/** The quantity's integer value rounded up (Quantity.Value()); InvalidArgument when it is no quantity. */
export function quantityValue(text: string): bigint {
  const m = text.length <= MAX_QUANTITY_LENGTH ? QUANTITY.exec(text) : null;
  if (m === null) {
    throw invalidArgument(`quantity ${JSON.stringify(text.slice(0, MAX_QUANTITY_LENGTH))} is not a Kubernetes quantity (e.g. "10M", "1.5Gi")`);
  }
  const [, sign, number, suffix = ''] = m as unknown as [string, string, string, string | undefined];
  const [whole = '', fraction = ''] = number.split('.');
  let numerator = BigInt(`${whole}${fraction}` || '0');
  let exponent = -fraction.length;
  if (suffix in BINARY_SI) numerator *= BINARY_SI[suffix]!;
  else if (suffix in DECIMAL_SI) exponent += DECIMAL_SI[suffix]!;
  else exponent += Number.parseInt(suffix.slice(1), 10);
  // Clamped: with at most 64 digits, past +-80 the value is above any bound or below 1 either way.
  exponent = Math.max(-MAX_EXPONENT, Math.min(MAX_EXPONENT, exponent));
  let denominator = 1n;
  if (exponent >= 0) numerator *= 10n ** BigInt(exponent);
  else denominator = 10n ** BigInt(-exponent);
  // Rounded toward +infinity, as Value() does.
  return sign === '-' ? -(numerator / denominator) : (numerator + denominator - 1n) / denominator;
}
