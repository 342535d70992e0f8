// berth_preload.so (internal/sys/preload/prefault.c), the library bin/berthd preloads into Node:
// a read-write mprotect of up to 1 MiB (V8 committing a heap page) comes back populated until the
// end of start-up, malloc's heap starts 4 MiB larger and populated, and the library takes itself out
// of LD_PRELOAD so that what the process starts does not get it. Checked in Debian's python3 (not a
// PATH shim, whose shell would take the library out before python runs), coreutils, and Node with
// berth's addon, which tells the library start-up is over.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../../internal/repo_root';
import { PRELOAD, runPreloaded } from '../../harness/preload';

const MIB = 1 << 20;

// Resident pages (mincore) of a region mapped PROT_NONE, then made read-write, never touched.
const RESIDENT_AFTER_MPROTECT = `
import ctypes, json, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p]
PAGE = 4096
def resident(size):
    addr = libc.mmap(None, size, 0, 0x22 | 0x4000, -1, 0)  # PROT_NONE; MAP_PRIVATE|MAP_ANONYMOUS|MAP_NORESERVE
    assert libc.mprotect(addr, size, 3) == 0  # PROT_READ|PROT_WRITE
    vec = ctypes.create_string_buffer(size // PAGE)
    assert libc.mincore(addr, size, vec) == 0
    return sum(b & 1 for b in vec.raw)
before = [resident(int(s)) for s in sys.argv[1:]]
libc.berth_prefault_end()  # what berthd calls once serving (through its addon)
print(json.dumps({'before': before, 'after': [resident(int(s)) for s in sys.argv[1:]]}))
`;

/** Bytes of malloc's heap ([heap] in the process's own maps) as a process starts. */
function heapBytes(preload: string | undefined): number {
  const line = runPreloaded('/usr/bin/cat', ['/proc/self/maps'], preload)
    .split('\n')
    .find((l) => l.endsWith('[heap]'));
  if (line === undefined) return 0;
  const [from, to] = line.split(' ')[0]!.split('-').map((h) => parseInt(h, 16));
  return to! - from!;
}

describe('the start-up prefault preload', () => {
  beforeAll(() => {
    if (!existsSync(PRELOAD)) throw new Error(`${PRELOAD} missing: make build makes it`);
  });

  it('populates a region of up to 1 MiB when it is made read-write, leaves 8 MiB ones (thread stacks) to fault, and stops at the end of start-up', () => {
    const sizes = [256 * 1024, MIB, 8 * MIB];
    const withPreload = JSON.parse(runPreloaded('/usr/bin/python3', ['-c', RESIDENT_AFTER_MPROTECT, ...sizes.map(String)], PRELOAD));
    expect(withPreload).toEqual({ before: [64, 256, 0], after: [0, 0, 0] });
    // Without it nothing is populated, and the end of start-up is not there to call.
    const without = runPreloaded('/usr/bin/python3', ['-c', RESIDENT_AFTER_MPROTECT.replace('libc.berth_prefault_end()', 'pass'), ...sizes.map(String)], undefined);
    expect(JSON.parse(without)).toEqual({ before: [0, 0, 0], after: [0, 0, 0] });
  });

  it("berth's addon tells the preload that start-up is over, and knows when there is none", () => {
    const addon = join(repoRoot(), 'dist', 'internal', 'sys', 'prefault.js');
    const script = `process.stdout.write(String(require(${JSON.stringify(addon)}).endStartupPrefault()))`;
    expect(runPreloaded(process.execPath, ['-e', script], PRELOAD)).toBe('true');
    expect(runPreloaded(process.execPath, ['-e', script], undefined)).toBe('false');
  });

  it("starts malloc's heap 4 MiB larger", () => {
    expect(heapBytes(undefined)).toBeLessThan(4 * MIB);
    expect(heapBytes(PRELOAD)).toBeGreaterThanOrEqual(4 * MIB);
  });

  it('takes itself out of LD_PRELOAD and keeps the rest of the list for what the process starts', () => {
    const preloadOf = (out: string) => out.split('\n').filter((l) => l.startsWith('LD_PRELOAD='));
    expect(preloadOf(runPreloaded('/usr/bin/env', [], PRELOAD))).toEqual([]);
    expect(preloadOf(runPreloaded('/usr/bin/env', [], `${PRELOAD}:`))).toEqual([]);
    // ld.so warns that it cannot load the second one, and goes on.
    expect(preloadOf(runPreloaded('/usr/bin/env', [], `${PRELOAD}:/nonexistent/berth-other.so`))).toEqual(['LD_PRELOAD=/nonexistent/berth-other.so']);
  });
});
