// Our api/*.proto against the upstream wire facts in ../shared/reference: every message (fields by
// name, number, type, label, map key), enum (values) and service (methods, types, streaming) of
// the reference must be the same in ours. Types are compared resolved to full names, so `Mount`
// and `containerd.types.Mount` written in different files still compare equal.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as protobuf from 'protobufjs';

const REPO = join(__dirname, '../..');
const API = join(REPO, 'api');
const REFERENCE = join(REPO, '../shared/reference');
const CHECKED_PACKAGES = [/^runtime\.v1(\.|$)/, /^containerd(\.|$)/, /^ttrpc(\.|$)/, /^google\.rpc(\.|$)/];

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
