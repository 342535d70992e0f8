// The server's message types, built per method on first use from the root's descriptor (issue 16):
// building the whole runtime.v1 root (~300 types) was ~7 ms of every restart before berthd served,
// though the first calls after it need a handful of types. Each method's request and response get a
// small root of their own with just the types they need (the descriptor lists them, worked out at
// build time), set up from the kept codec sources as a whole root would be.
import * as protobuf from 'protobufjs';
import { useKeptCodecs, type KeptCodecs } from './kept_codecs';
import type { MethodShape } from './method_types';
import { currentDescriptor, DESCRIPTOR_DIR, keptCodecsOf, type Descriptor } from './proto_root';

type JsonNode = protobuf.AnyNestedObject & { nested?: Record<string, JsonNode> };

/**
 * The part of `root` (a descriptor's JSON) that defines `fullNames`: each type as it is, under its
 * packages; an enclosing message that is not itself listed becomes a plain namespace (its own fields
 * may name types that are not there). A name resolves here to what it resolves to in the whole root:
 * everything it may resolve to is listed, and dropping types cannot make a nearer scope match.
 */
export function prunedNamespace(root: protobuf.INamespace, fullNames: readonly string[]): protobuf.INamespace {
  const out: JsonNode = {};
  for (const fullName of fullNames) {
    let from = root as JsonNode;
    let to = out;
    for (const part of fullName.slice(1).split('.')) {
      const next = from.nested?.[part];
      if (next === undefined) throw new Error(`berth: the descriptor has no ${fullName}`);
      from = next;
      to.nested ??= {};
      to = to.nested[part] ??= {};
    }
    const { nested: _nested, ...definition } = from;
    Object.assign(to, definition);
  }
  return out as protobuf.INamespace;
}

export class MethodRoots {
  private readonly types = new Map<string, protobuf.Type>();

  private constructor(
    private readonly descriptor: Descriptor & { methods: NonNullable<Descriptor['methods']> },
    private readonly kept: KeptCodecs | undefined,
  ) {}

  /** From the descriptor `name` when it is current and lists its methods' types; else undefined. */
  static open(name: string, files: readonly string[], dir = DESCRIPTOR_DIR): MethodRoots | undefined {
    const descriptor = currentDescriptor(name, files, dir);
    if (descriptor?.methods === undefined) return undefined;
    return new MethodRoots({ ...descriptor, methods: descriptor.methods }, keptCodecsOf(dir, name, descriptor));
  }

  /** The methods of `service` (full name, no leading dot), in the .proto's order. */
  methods(service: string): MethodShape[] {
    let node: JsonNode | undefined = this.descriptor.root as JsonNode;
    for (const part of service.split('.')) node = node?.nested?.[part];
    if (node === undefined || !('methods' in node)) throw new Error(`berth: the descriptor has no service ${service}`);
    return Object.entries(node.methods as Record<string, protobuf.IMethod>).map(([name, m]) => ({
      name,
      requestStream: m.requestStream === true,
      responseStream: m.responseStream === true,
    }));
  }

  /** The request or response type of `service`/`method`, in a root of its own (built once). */
  messageType(service: string, method: string, which: 'request' | 'response'): protobuf.Type {
    const key = `${service}/${method}/${which}`;
    let type = this.types.get(key);
    if (type === undefined) {
      const names = this.descriptor.methods[`${service}/${method}`]?.[which];
      if (names === undefined) throw new Error(`berth: ${service} has no ${method}`);
      const root = protobuf.Root.fromJSON(prunedNamespace(this.descriptor.root, names));
      root.resolveAll();
      useKeptCodecs(root, this.kept);
      type = root.lookupType(names[0]!);
      this.types.set(key, type);
    }
    return type;
  }
}
