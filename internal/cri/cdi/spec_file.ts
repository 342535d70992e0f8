// A CDI spec file (JSON or YAML), versions 0.3.0 to 0.6.0: its kind, its devices and the container
// edits of each and of the whole spec. No maintained CDI parser exists for Node, so this reads the
// subset those versions define, strictly (an unknown key is an error, as the reference library's
// strict unmarshal), and checks the rules the reference library checks when it loads a spec.
import { z } from 'zod/v3';
import { deviceNameProblem, parseKind, vendorOrClassProblem } from './names';

const SUPPORTED_VERSIONS = ['0.3.0', '0.4.0', '0.5.0', '0.6.0'] as const;
type Version = (typeof SUPPORTED_VERSIONS)[number];

const env = z.array(z.string().refine((e) => e.indexOf('=') > 0, { message: 'must be KEY=VALUE' }));
const uint32 = z.number().int().min(0).max(0xffffffff);

const deviceNode = z.strictObject({
  path: z.string().min(1),
  hostPath: z.string().optional(),
  type: z.enum(['', 'b', 'c', 'u', 'p']).optional(),
  // Negative numbers are refused: -1 would be a wildcard in a device cgroup rule.
  major: z.number().int().min(0).optional(),
  minor: z.number().int().min(0).optional(),
  fileMode: uint32.optional(),
  permissions: z
    .string()
    .refine((p) => p === 'none' || /^[rwm]*$/.test(p), { message: 'must be made of r, w, m, or be "none"' })
    .optional(),
  uid: uint32.optional(),
  gid: uint32.optional(),
});

const mount = z.strictObject({
  hostPath: z.string().min(1),
  containerPath: z.string().min(1),
  options: z.array(z.string()).optional(),
  type: z.string().optional(),
});

const HOOK_NAMES = ['prestart', 'createRuntime', 'createContainer', 'startContainer', 'poststart', 'poststop'] as const;

const hook = z.strictObject({
  hookName: z.enum(HOOK_NAMES),
  path: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: env.optional(),
  timeout: z.number().int().optional(),
});

const containerEdits = z.strictObject({
  env: env.optional(),
  deviceNodes: z.array(deviceNode).optional(),
  hooks: z.array(hook).optional(),
  mounts: z.array(mount).optional(),
});

const annotations = z.record(z.string(), z.string());

const specFile = z.strictObject({
  cdiVersion: z.string(),
  kind: z.string(),
  annotations: annotations.optional(),
  devices: z.array(
    z.strictObject({
      name: z.string(),
      annotations: annotations.optional(),
      containerEdits,
    }),
  ),
  containerEdits: containerEdits.optional(),
});

export type ContainerEdits = z.output<typeof containerEdits>;
export type DeviceNode = z.output<typeof deviceNode>;
export type CdiMount = z.output<typeof mount>;
export type CdiHook = z.output<typeof hook>;
export type HookName = (typeof HOOK_NAMES)[number];

export interface CdiSpec {
  path: string;
  vendor: string;
  class: string;
  /** Edits applied once for any of its devices. */
  edits: ContainerEdits;
  /** Device name (unqualified) -> its edits. */
  devices: Map<string, ContainerEdits>;
}

/** Parses and checks one spec file's text; throws an Error saying what is wrong. */
export function parseCdiSpec(text: string, path: string): CdiSpec {
  // JSON is YAML too: one parser reads both encodings, as the reference library does.
  // yaml (70 modules) loads on the first CDI spec read, not at every berthd start.
  const { parse: parseYaml } = require('yaml') as typeof import('yaml');
  const result = specFile.safeParse(parseYaml(text, { uniqueKeys: true }));
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new Error(`${issue.path.join('.') || '(top level)'}: ${issue.message}`);
  }
  const raw = result.data;
  if (!(SUPPORTED_VERSIONS as readonly string[]).includes(raw.cdiVersion)) {
    throw new Error(`cdiVersion ${JSON.stringify(raw.cdiVersion)} is not supported (have: ${SUPPORTED_VERSIONS.join(', ')})`);
  }
  const kind = parseKind(raw.kind);
  if (kind === undefined) throw new Error(`kind ${JSON.stringify(raw.kind)} is not vendor/class`);
  const kindProblem = vendorOrClassProblem(kind.vendor) || vendorOrClassProblem(kind.class);
  if (kindProblem !== '') throw new Error(`kind ${JSON.stringify(raw.kind)}: ${kindProblem}`);
  const needed = requiredVersion(raw, kind.class);
  if (compareVersions(raw.cdiVersion as Version, needed) < 0) {
    throw new Error(`the spec uses features of cdiVersion ${needed} but declares ${raw.cdiVersion}`);
  }
  const devices = new Map<string, ContainerEdits>();
  for (const d of raw.devices) {
    const problem = deviceNameProblem(d.name);
    if (problem !== '') throw new Error(`device ${JSON.stringify(d.name)}: ${problem}`);
    if (devices.has(d.name)) throw new Error(`device ${JSON.stringify(d.name)} is defined twice`);
    if (editsAreEmpty(d.containerEdits)) throw new Error(`device ${JSON.stringify(d.name)} has no container edits`);
    devices.set(d.name, d.containerEdits);
  }
  if (devices.size === 0) throw new Error('the spec defines no devices');
  return { path, vendor: kind.vendor, class: kind.class, edits: raw.containerEdits ?? {}, devices };
}

function editsAreEmpty(e: ContainerEdits): boolean {
  return !e.env?.length && !e.deviceNodes?.length && !e.hooks?.length && !e.mounts?.length;
}

function compareVersions(a: Version, b: Version): number {
  return SUPPORTED_VERSIONS.indexOf(a) - SUPPORTED_VERSIONS.indexOf(b);
}

/** The lowest version whose features the spec uses (the reference library's MinimumRequiredVersion). */
function requiredVersion(raw: z.output<typeof specFile>, cls: string): Version {
  const all = [raw.containerEdits ?? {}, ...raw.devices.map((d) => d.containerEdits)];
  // 0.6.0: annotations on the spec or a device, and "." in the class.
  if (raw.annotations !== undefined && Object.keys(raw.annotations).length > 0) return '0.6.0';
  if (raw.devices.some((d) => d.annotations !== undefined && Object.keys(d.annotations).length > 0)) return '0.6.0';
  if (cls.includes('.')) return '0.6.0';
  // 0.5.0: device names starting with a digit, and deviceNodes[].hostPath.
  if (raw.devices.some((d) => d.name !== '' && !/^[A-Za-z]/.test(d.name))) return '0.5.0';
  if (all.some((e) => e.deviceNodes?.some((n) => (n.hostPath ?? '') !== ''))) return '0.5.0';
  // 0.4.0: mounts[].type.
  if (all.some((e) => e.mounts?.some((m) => (m.type ?? '') !== ''))) return '0.4.0';
  return '0.3.0';
}
