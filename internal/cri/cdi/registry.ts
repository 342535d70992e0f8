// The CDI devices of this host: every *.json / *.yaml spec file directly in the spec directories
// (subdirectories skipped), read afresh for each injection so a device plugin's newly written spec
// is seen without a watcher. A device defined in two directories comes from the later one (higher
// priority); defined twice in one directory, it is a conflict and resolves to nothing, as in the
// CDI reference library. A file that does not parse is skipped, and named when it leaves a
// requested device unresolved.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { invalidArgument, notFound } from '../../errdefs/errors';
import type { Spec } from '../../oci/spec';
import { applyEdits, appendEdits, emptyEdits, type StatDevice } from './edits';
import { parseQualifiedName } from './names';
import { parseCdiSpec, type CdiSpec, type ContainerEdits } from './spec_file';

/** Spec files are written by device plugins and admins; a larger one is refused, not read. */
const MAX_SPEC_FILE_BYTES = 4 << 20;

interface ResolvedDevice {
  spec: CdiSpec;
  edits: ContainerEdits;
  priority: number;
}

export interface CdiRegistryOptions {
  /** Spec directories, lowest priority first (containerd's cdi_spec_dirs). */
  specDirs: readonly string[];
  statDevice: StatDevice;
}

export class CdiRegistry {
  constructor(private readonly opts: CdiRegistryOptions) {}

  /**
   * Applies the edits of `devices` (qualified names, in request order) to `spec`: each spec file's
   * own edits once, before its first device's. Unknown devices fail the whole injection.
   */
  inject(spec: Spec, devices: readonly string[]): void {
    if (devices.length === 0) return;
    for (const d of devices) parseQualifiedName(d, 'CDI device');
    const { devices: known, errors } = this.scan();
    const unresolved = devices.filter((d) => !known.has(d));
    if (unresolved.length > 0) {
      const why = errors.length > 0 ? ` (CDI spec files skipped: ${errors.join('; ')})` : '';
      throw notFound(`unresolvable CDI devices ${unresolved.join(', ')} in ${this.opts.specDirs.join(', ')}${why}`);
    }
    const edits = emptyEdits();
    const seen = new Set<CdiSpec>();
    for (const d of devices) {
      const dev = known.get(d)!;
      if (!seen.has(dev.spec)) {
        seen.add(dev.spec);
        appendEdits(edits, dev.spec.edits);
      }
      appendEdits(edits, dev.edits);
    }
    try {
      applyEdits(spec, edits, this.opts.statDevice);
    } catch (err) {
      throw invalidArgument(`CDI device injection failed: ${(err as Error).message}`, err);
    }
  }

  private scan(): { devices: Map<string, ResolvedDevice>; errors: string[] } {
    const devices = new Map<string, ResolvedDevice>();
    const conflicts = new Set<string>();
    const errors: string[] = [];
    this.opts.specDirs.forEach((dir, priority) => {
      for (const file of specFilesIn(dir, errors)) {
        let spec: CdiSpec;
        try {
          spec = parseCdiSpec(readBounded(file), file);
        } catch (err) {
          errors.push(`${file}: ${(err as Error).message}`);
          continue;
        }
        for (const [name, edits] of spec.devices) {
          const qualified = `${spec.vendor}/${spec.class}=${name}`;
          const other = devices.get(qualified);
          if (other !== undefined && other.priority === priority) {
            errors.push(`${file}: device ${qualified} is also defined in ${other.spec.path}`);
            conflicts.add(qualified);
            continue;
          }
          devices.set(qualified, { spec, edits, priority });
        }
      }
    });
    for (const c of conflicts) devices.delete(c);
    return { devices, errors };
  }
}

/** Regular *.json / *.yaml files directly in `dir`, sorted; a missing dir has none. */
function specFilesIn(dir: string, errors: string[]): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') errors.push(`${dir}: ${(err as Error).message}`);
    return [];
  }
  return entries
    .filter((e) => !e.isDirectory() && /\.(json|yaml)$/.test(e.name))
    .map((e) => path.join(dir, e.name))
    .sort();
}

function readBounded(file: string): string {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  try {
    if (!fs.fstatSync(fd).isFile()) throw new Error('not a regular file');
    // Read at most one byte past the bound, whatever the file grows to meanwhile.
    const buf = Buffer.allocUnsafe(MAX_SPEC_FILE_BYTES + 1);
    let n = 0;
    for (let r = 1; r > 0 && n < buf.length; n += r) r = fs.readSync(fd, buf, n, buf.length - n, null);
    if (n > MAX_SPEC_FILE_BYTES) throw new Error(`larger than ${MAX_SPEC_FILE_BYTES} bytes`);
    return buf.toString('utf8', 0, n);
  } finally {
    fs.closeSync(fd);
  }
}
