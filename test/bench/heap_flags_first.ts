// Imported first by the floor processes: bin/berthd's heap-sizing flags back to their defaults
// before anything else loads, as berthd's loader does (cmd/berthd/heap_flags.ts), so the floors
// load Node's modules as berthd does.
import { heapSizeFlagsToDefaults } from '../../cmd/berthd/heap_flags';

heapSizeFlagsToDefaults();
