// `make build` step: writes the JSON descriptors of berth's proto roots next to the compiled
// internal/api (dist/internal/api/descriptors), so berthd does not parse .proto text at start.
import { CONTAINERD_PROTO_FILES } from '../../internal/api/containerd';
import { CRI_PROTO_ROOTS } from '../../internal/api/cri';
import { writeProtoDescriptor } from '../../internal/api/proto_root';

for (const [name, files] of [...CRI_PROTO_ROOTS, ['containerd', CONTAINERD_PROTO_FILES] as const]) {
  process.stdout.write(`wrote ${writeProtoDescriptor(name, files)}\n`);
}
