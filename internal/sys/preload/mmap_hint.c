// Part of berth_preload.so (issue 16): anonymous mappings asked for at a hinted address are placed
// where the kernel would put any new mapping, next to the others, instead of at the hint.
//
// V8 (no pointer compression in Node 20) asks for each 256 KiB heap page at a random address across
// the 47-bit address space. Scattered like that, every page needs its own page-table pages: a Node
// process with a 110 MiB heap had 240 distinct 1 GiB regions and 2.5 MiB of page tables (VmPTE),
// against 4 regions and 0.35 MiB with the hints dropped. Freeing those tables is most of what the
// kernel does when the process exits (exit_mmap: clearing PMD and PUD entries, each a costly write
// on the paravirtualised machines berth was measured on): SIGKILL -> exit of that process 9.7 ms
// against 4.5 ms, berthd's SIGTERM -> gone with 20 pods ~2x as long as its own stop. The random
// placement is V8's defence against exploits of the JavaScript it runs; berthd runs only its own,
// and the kernel still randomises where mappings begin (ASLR).
//
// Only hints are dropped: a MAP_FIXED or MAP_FIXED_NOREPLACE mapping, or one of a file, is made as
// asked. Node calls mmap64 (glibc's alias of mmap); both are replaced.
#define _GNU_SOURCE
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset) {
  if (addr != NULL && (flags & MAP_ANONYMOUS) && !(flags & (MAP_FIXED | MAP_FIXED_NOREPLACE))) addr = NULL;
  // The system call itself: glibc's mmap would be this function again. syscall() sets errno and
  // returns -1, which is MAP_FAILED.
  return (void *)syscall(SYS_mmap, addr, len, prot, flags, fd, offset);
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t offset) {
  return mmap(addr, len, prot, flags, fd, offset);
}
