// Part of berth_preload.so, which bin/berthd puts in Node's LD_PRELOAD (issue 16). On the virtual machines
// berth was measured on, a page fault costs ~15 us while MADV_POPULATE_WRITE maps a page for ~1 us,
// and a berthd start-up took ~4,600 faults (~70 ms of a 20-pod restart's ~290). So:
//  - when something (V8, committing a heap page) makes a region of at most 1 MiB read-write with
//    mprotect, the region is populated at once instead of fault by fault as it is first written;
//  - malloc's heap is grown by 4 MiB, populated, before Node starts, and left as free chunks that
//    start-up's allocations then take (malloc's own settings, its dynamic thresholds, are untouched:
//    fixed ones kept ~7 MiB more resident after the bench's busy scenarios, and calls were no faster).
// Both are for start-up: once berthd serves it calls berth_prefault_end() (through its addon), and
// from then on regions fault as they are used and malloc_trim gives back what the heap does not hold.
// Populating fails harmlessly where the kernel lacks it (before Linux 5.14). The library takes its
// own entry out of LD_PRELOAD as it loads, so the processes berthd starts (shims, runc, CNI plugins)
// do not get it; whatever else the list held stays.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

/** Larger read-write regions (thread stacks are 8 MiB) are left to fault as they are used. */
#define POPULATE_MAX (1UL << 20)
#define HEAP_PREFAULT (4UL << 20)

static volatile int ended;

// mprotect as the system call itself: it may be called before this library's constructor ran.
int mprotect(void *addr, size_t len, int prot) {
  long r = syscall(SYS_mprotect, addr, len, prot);
  if (r == 0 && !ended && prot == (PROT_READ | PROT_WRITE) && len <= POPULATE_MAX) {
    int saved = errno;
    madvise(addr, len, MADV_POPULATE_WRITE);
    errno = saved;
  }
  return (int)r;
}

/** Removes this library's own entries from LD_PRELOAD (unsets it when nothing else is left). */
static void drop_own_preload(void) {
  const char *list = getenv("LD_PRELOAD");
  Dl_info self;
  if (list == NULL || dladdr((void *)drop_own_preload, &self) == 0 || self.dli_fname == NULL) return;
  size_t size = strlen(list) + 1;
  char *copy = malloc(size), *rest = malloc(size);
  if (copy == NULL || rest == NULL) goto out;
  memcpy(copy, list, size);
  rest[0] = '\0';
  char *save = NULL;
  for (char *item = strtok_r(copy, ": ", &save); item != NULL; item = strtok_r(NULL, ": ", &save)) {
    if (strcmp(item, self.dli_fname) == 0) continue;
    if (rest[0] != '\0') strcat(rest, ":");
    strcat(rest, item);
  }
  if (rest[0] == '\0') unsetenv("LD_PRELOAD");
  else setenv("LD_PRELOAD", rest, 1);
out:
  free(copy);
  free(rest);
}

/**
 * Grows malloc's heap by HEAP_PREFAULT, populated, as blocks it then frees all but the last: that
 * one keeps them from merging into the heap's top, which free() would give back to the system, so
 * they stay free chunks for what start-up allocates next. malloc's own settings are left alone.
 */
static void prefault_heap(void) {
  enum { BLOCK = 32 << 10, N = HEAP_PREFAULT / BLOCK };
  static void *blocks[N];
  char *before = sbrk(0);
  for (int i = 0; i < N; i++) blocks[i] = malloc(BLOCK - 64);
  char *after = sbrk(0);
  if (before != (char *)-1 && after != (char *)-1 && after > before) madvise(before, (size_t)(after - before), MADV_POPULATE_WRITE);
  for (int i = 0; i < N - 1; i++) free(blocks[i]);
}

__attribute__((constructor)) static void berth_prefault_init(void) {
  drop_own_preload();
  prefault_heap();
}

/** Start-up is over: stop populating, and return the heap's unused pages to the system. */
void berth_prefault_end(void) {
  ended = 1;
  malloc_trim(0);
}
