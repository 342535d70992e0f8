// CDI device names ("vendor.com/class=name") and the cdi.k8s.io/* request annotations, with the
// syntax rules of the CDI reference library (tags.cncf.io/container-device-interface pkg/parser).
import { invalidArgument } from '../../errdefs/errors';

/** Key prefix of the annotations that request CDI devices (the value: qualified names, comma-separated). */
export const CDI_ANNOTATION_PREFIX = 'cdi.k8s.io/';

export interface QualifiedName {
  vendor: string;
  class: string;
  name: string;
}

const isLetter = (c: string) => /^[A-Za-z]$/.test(c);
const isAlnum = (c: string) => /^[A-Za-z0-9]$/.test(c);

/** Vendor or class: a letter first, a letter or digit last, [A-Za-z0-9_.-] between. "" when valid. */
export function vendorOrClassProblem(s: string): string {
  if (s === '') return 'empty name';
  if (!isLetter(s[0] as string)) return `${JSON.stringify(s)} should start with a letter`;
  if (!/^[A-Za-z0-9_.-]*$/.test(s.slice(1, -1))) return `${JSON.stringify(s)} has an invalid character`;
  if (!isAlnum(s[s.length - 1] as string)) return `${JSON.stringify(s)} should end with a letter or digit`;
  return '';
}

/** Device name: a letter or digit first and last, [A-Za-z0-9_.:-] between. "" when valid. */
export function deviceNameProblem(s: string): string {
  if (s === '') return 'empty device name';
  if (!isAlnum(s[0] as string)) return `${JSON.stringify(s)} should start with a letter or digit`;
  if (s.length === 1) return '';
  if (!/^[A-Za-z0-9_.:-]*$/.test(s.slice(1, -1))) return `${JSON.stringify(s)} has an invalid character`;
  if (!isAlnum(s[s.length - 1] as string)) return `${JSON.stringify(s)} should end with a letter or digit`;
  return '';
}

/** "vendor/class" of a spec's kind, or undefined when it has no vendor part. */
export function parseKind(kind: string): { vendor: string; class: string } | undefined {
  const slash = kind.indexOf('/');
  if (slash <= 0 || slash === kind.length - 1) return undefined;
  return { vendor: kind.slice(0, slash), class: kind.slice(slash + 1) };
}

/** Splits and checks a fully qualified device name; throws InvalidArgument naming `what`. */
export function parseQualifiedName(device: string, what: string): QualifiedName {
  const eq = device.indexOf('=');
  const kind = eq > 0 && !device.startsWith('/') ? parseKind(device.slice(0, eq)) : undefined;
  if (kind === undefined || eq === device.length - 1) {
    throw invalidArgument(`${what}: ${JSON.stringify(device)} is not a qualified CDI device name (vendor.com/class=name)`);
  }
  const name = device.slice(eq + 1);
  const problem = vendorOrClassProblem(kind.vendor) || vendorOrClassProblem(kind.class) || deviceNameProblem(name);
  if (problem !== '') throw invalidArgument(`${what}: CDI device ${JSON.stringify(device)}: ${problem}`);
  return { ...kind, name };
}

/** Device names requested by cdi.k8s.io/* annotations, in key order (Go's map order is random). */
export function devicesFromAnnotations(annotations: Record<string, string> | undefined): string[] {
  const out: string[] = [];
  for (const key of Object.keys(annotations ?? {}).sort()) {
    if (!key.startsWith(CDI_ANNOTATION_PREFIX)) continue;
    for (const d of (annotations as Record<string, string>)[key]!.split(',')) {
      parseQualifiedName(d, `annotation ${key}`);
      out.push(d);
    }
  }
  return out;
}
