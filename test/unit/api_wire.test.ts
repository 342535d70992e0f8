// Our api/*.proto against the upstream wire facts in ../shared/reference: every message (fields by
// name, number, type, label, map key), enum (values) and service (methods, types, streaming) of
// the reference must be the same in ours. Types are compared resolved to full names, so `Mount`
// and `containerd.types.Mount` written in different files still compare equal. Our runtime.v1alpha2
// must also be a wire subset of our runtime.v1: berthd decodes v1alpha2 requests as v1 messages.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as protobuf from 'protobufjs';

const REPO = join(__dirname, '../..');
const API = join(REPO, 'api');
const REFERENCE = join(REPO, '../shared/reference');
const CHECKED_PACKAGES = [/^runtime\.v1(\.|$)/, /^runtime\.v1alpha2(\.|$)/, /^containerd(\.|$)/, /^ttrpc(\.|$)/, /^google\.rpc(\.|$)/];

function protoFiles(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return protoFiles(path);
      return name.endsWith('.proto') ? [path] : [];
    })
    .sort();
}

function loadOurs(): protobuf.Root {
  const root = new protobuf.Root();
  // Imports are relative to api/; google/protobuf/* come from protobufjs's bundled well-known types.
  root.resolvePath = (_origin, target) => (target.startsWith('/') ? target : join(API, target));
  root.loadSync(protoFiles(API), { keepCase: true });
  root.resolveAll();
  return root;
}

const strip = (fullName: string) => fullName.replace(/^\./, '');

function checked(fullName: string): boolean {
  return CHECKED_PACKAGES.some((re) => re.test(strip(fullName)));
}

function fieldType(f: protobuf.Field): string {
  return f.resolvedType ? strip(f.resolvedType.fullName) : f.type;
}

function describeField(f: protobuf.Field): string {
  const key = f instanceof protobuf.MapField ? `map<${f.keyType}, ` : '';
  return `${f.rule ?? ''}${f.rule ? ' ' : ''}${key}${fieldType(f)}${key ? '>' : ''} ${f.name} = ${f.id}`;
}

function compareType(ref: protobuf.Type, ours: protobuf.Type, diffs: string[]): void {
  const name = strip(ref.fullName);
  const refFields = ref.fieldsArray.filter((f) => !f.extend);
  const ourFields = new Map(ours.fieldsArray.filter((f) => !f.extend).map((f) => [f.name, f]));
  for (const rf of refFields) {
    const of = ourFields.get(rf.name);
    if (!of) diffs.push(`${name}: missing field \`${describeField(rf)}\``);
    else if (describeField(rf) !== describeField(of)) {
      diffs.push(`${name}: field differs: reference \`${describeField(rf)}\`, ours \`${describeField(of)}\``);
    }
    ourFields.delete(rf.name);
  }
  for (const of of ourFields.values()) diffs.push(`${name}: extra field \`${describeField(of)}\``);
}

function compareEnum(ref: protobuf.Enum, ours: protobuf.Enum, diffs: string[]): void {
  const name = strip(ref.fullName);
  const show = (values: Record<string, number>) =>
    Object.entries(values)
      .sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))
      .map(([k, v]) => `${k}=${v}`)
      .join(', ');
  if (show(ref.values) !== show(ours.values)) {
    diffs.push(`${name}: enum values differ: reference {${show(ref.values)}}, ours {${show(ours.values)}}`);
  }
}

function describeMethod(m: protobuf.Method): string {
  const req = strip(m.resolvedRequestType!.fullName);
  const res = strip(m.resolvedResponseType!.fullName);
  return `rpc ${m.name}(${m.requestStream ? 'stream ' : ''}${req}) returns (${m.responseStream ? 'stream ' : ''}${res})`;
}

function compareService(ref: protobuf.Service, ours: protobuf.Service, diffs: string[]): void {
  const name = strip(ref.fullName);
  for (const rm of ref.methodsArray) {
    const om = ours.methods[rm.name];
    if (!om) diffs.push(`${name}: missing \`${describeMethod(rm)}\``);
    else if (describeMethod(rm) !== describeMethod(om)) {
      diffs.push(`${name}: method differs: reference \`${describeMethod(rm)}\`, ours \`${describeMethod(om)}\``);
    }
  }
  for (const om of ours.methodsArray) {
    if (!ref.methods[om.name]) diffs.push(`${name}: extra \`${describeMethod(om)}\``);
  }
}

function kindOf(obj: protobuf.ReflectionObject): string {
  if (obj instanceof protobuf.Type) return 'message';
  if (obj instanceof protobuf.Enum) return 'enum';
  if (obj instanceof protobuf.Service) return 'service';
  return 'namespace';
}

/** Every difference between the reference and ours, one readable line each. */
function compareAll(ref: protobuf.Root, ours: protobuf.Root): { diffs: string[]; compared: number } {
  const diffs: string[] = [];
  let compared = 0;
  const visit = (ns: protobuf.NamespaceBase) => {
    for (const obj of ns.nestedArray) {
      if (obj instanceof protobuf.Field) continue; // extension fields (options), not wire messages
      if (!(obj instanceof protobuf.Type || obj instanceof protobuf.Enum || obj instanceof protobuf.Service)) {
        if (obj instanceof protobuf.Namespace) visit(obj);
        continue;
      }
      if (obj instanceof protobuf.Type) visit(obj); // nested messages and enums
      if (!checked(obj.fullName)) continue;
      compared++;
      const mine = ours.lookup(obj.fullName);
      if (!mine || kindOf(mine) !== kindOf(obj)) {
        diffs.push(`${strip(obj.fullName)}: ${kindOf(obj)} missing from api/`);
      } else if (obj instanceof protobuf.Type) compareType(obj, mine as protobuf.Type, diffs);
      else if (obj instanceof protobuf.Enum) compareEnum(obj, mine as protobuf.Enum, diffs);
      else compareService(obj, mine as protobuf.Service, diffs);
    }
  };
  visit(ref);
  return { diffs, compared };
}

// Protobuf wire types: a field decodes the same under either declared type of one group.
const WIRE_TYPE: Record<string, string> = { string: 'len', bytes: 'len', int32: 'varint', int64: 'varint', uint32: 'varint', uint64: 'varint', bool: 'varint' };

/** `f` as the wire sees it: number, label, wire type (message/enum fields by their name in the package). */
function wireField(f: protobuf.Field, pkg: string): string {
  const type = f.resolvedType ? strip(f.resolvedType.fullName).replace(`${pkg}.`, '') : (WIRE_TYPE[f.type] ?? f.type);
  const key = f instanceof protobuf.MapField ? `map<${WIRE_TYPE[f.keyType] ?? f.keyType}> ` : '';
  return [f.id, f.rule, `${key}${type}`].filter(Boolean).join(' ');
}

/** Where `alpha` (every message, enum and service of the package) would not decode as `v1`. */
function wireSubsetDiffs(alpha: protobuf.Namespace, v1: protobuf.Namespace): string[] {
  const diffs: string[] = [];
  const visit = (ns: protobuf.NamespaceBase) => {
    for (const obj of ns.nestedArray) {
      const rel = strip(obj.fullName).slice(strip(alpha.fullName).length + 1);
      const mine = v1.lookup(rel);
      if (obj instanceof protobuf.Type) {
        visit(obj);
        if (!(mine instanceof protobuf.Type)) diffs.push(`${rel}: no v1 message`);
        else {
          for (const f of obj.fieldsArray) {
            const other = mine.fields[f.name];
            const want = wireField(f, strip(alpha.fullName));
            const got = other ? wireField(other, strip(v1.fullName)) : 'missing';
            if (want !== got) diffs.push(`${rel}.${f.name}: v1alpha2 \`${want}\`, v1 \`${got}\``);
          }
        }
      } else if (obj instanceof protobuf.Enum) {
        if (!(mine instanceof protobuf.Enum)) diffs.push(`${rel}: no v1 enum`);
        else for (const [k, v] of Object.entries(obj.values)) if (mine.values[k] !== v) diffs.push(`${rel}.${k}: v1alpha2 ${v}, v1 ${mine.values[k]}`);
      } else if (obj instanceof protobuf.Service) {
        if (!(mine instanceof protobuf.Service)) diffs.push(`${rel}: no v1 service`);
        else {
          for (const m of obj.methodsArray) {
            const other = mine.methods[m.name];
            const show = (x: protobuf.Method | undefined, pkg: string) =>
              x ? describeMethod(x).replaceAll(`${pkg}.`, '') : 'missing';
            if (show(m, strip(alpha.fullName)) !== show(other, strip(v1.fullName))) {
              diffs.push(`${rel}/${m.name}: v1alpha2 \`${show(m, strip(alpha.fullName))}\`, v1 \`${show(other, strip(v1.fullName))}\``);
            }
          }
        }
      }
    }
  };
  visit(alpha);
  return diffs;
}

const referenceFiles = existsSync(REFERENCE) ? readdirSync(REFERENCE).filter((f) => f.endsWith('.json')).sort() : [];

if (referenceFiles.length === 0) {
  // eslint-disable-next-line no-console
  console.log(`wire reference ${relative(REPO, REFERENCE)} absent: skipping`);
  describe.skip('api wire compatibility', () => {
    it('needs ../shared/reference', () => undefined);
  });
} else {
  describe('api wire compatibility', () => {
    const ours = loadOurs();

    it.each(referenceFiles)('api/ matches %s', (file) => {
      const json = JSON.parse(readFileSync(join(REFERENCE, file), 'utf8')) as protobuf.INamespace;
      const ref = protobuf.Root.fromJSON(json);
      ref.resolveAll();
      const { diffs, compared } = compareAll(ref, ours);
      expect(compared).toBeGreaterThan(0);
      expect(diffs).toEqual([]);
    });

    it('runtime.v1alpha2 in api/ decodes as runtime.v1: same numbers and wire types, v1 only adds', () => {
      const alpha = ours.lookup('runtime.v1alpha2') as protobuf.Namespace;
      const v1 = ours.lookup('runtime.v1') as protobuf.Namespace;
      expect(alpha.nestedArray.length).toBeGreaterThan(100);
      expect(wireSubsetDiffs(alpha, v1)).toEqual([]);
    });

    it('finds a v1alpha2 field that would not decode as v1 (the subset check can fail)', () => {
      const alpha = protobuf.Root.fromJSON({
        nested: {
          runtime: {
            nested: {
              v1alpha2: {
                nested: {
                  KeyValue: { fields: { key: { type: 'string', id: 1 }, value: { type: 'string', id: 2 } } },
                  VersionRequest: { fields: { version: { type: 'int32', id: 1 } } },
                },
              },
            },
          },
        },
      });
      alpha.resolveAll();
      expect(wireSubsetDiffs(alpha.lookup('runtime.v1alpha2') as protobuf.Namespace, ours.lookup('runtime.v1') as protobuf.Namespace)).toEqual([
        'VersionRequest.version: v1alpha2 `1 varint`, v1 `1 len`',
      ]);
    });

    it('finds a changed field (the comparison can fail)', () => {
      const ref = protobuf.Root.fromJSON({
        nested: {
          runtime: { nested: { v1: { nested: { VersionRequest: { fields: { version: { type: 'int32', id: 1 } } } } } } },
        },
      });
      ref.resolveAll();
      expect(compareAll(ref, ours).diffs).toEqual([
        'runtime.v1.VersionRequest: field differs: reference `int32 version = 1`, ours `string version = 1`',
      ]);
    });
  });
}
