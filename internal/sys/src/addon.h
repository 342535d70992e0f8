/* berth's native system calls: the few Linux calls Node has no binding for. */
#ifndef BERTH_SYS_ADDON_H
#define BERTH_SYS_ADDON_H
#define NAPI_VERSION 8
#include <node_api.h>

/* A JS Error carrying errno's code (e.g. "EPERM") and the call that failed, to throw or reject with. */
napi_value berth_errno_error(napi_env env, int err, const char *call, const char *path);
/* Throws a JS Error carrying errno's code (e.g. "EPERM") and the call that failed. */
napi_value berth_throw_errno(napi_env env, int err, const char *call, const char *path);
/* The call's first argument, a path (a non-empty string without NUL, shorter than `size` - 1
 * bytes), into buf: 0, or -1 with a TypeError naming `fn` thrown. */
int berth_path_arg(napi_env env, napi_callback_info info, const char *fn, char *buf, size_t size);

/* fs.c registers mount/umount/mknod/mkfifo/xattr/chown calls. */
napi_status berth_register_fs(napi_env env, napi_value exports);
/* netns.c registers network-namespace calls. */
napi_status berth_register_netns(napi_env env, napi_value exports);
/* spawn.c registers runProcess: a helper binary run to completion through posix_spawn. */
napi_status berth_register_spawn(napi_env env, napi_value exports);
/* sock.c registers socketpair. */
napi_status berth_register_sock(napi_env env, napi_value exports);
/* fsat.c registers the fd-relative, never-following file calls of layer apply. */
napi_status berth_register_fsat(napi_env env, napi_value exports);
/* notify.c registers sdNotify: a datagram to systemd's NOTIFY_SOCKET. */
napi_status berth_register_notify(napi_env env, napi_value exports);
/* map.c registers mapLatin1/mapBuffer: files mapped read-only, for berthd's start-up. */
napi_status berth_register_map(napi_env env, napi_value exports);
/* prefault.c registers prefaultEnd: start-up is over, for bin/berthd's preload. */
napi_status berth_register_prefault(napi_env env, napi_value exports);
/* exit.c registers exitNow: _exit(code). */
napi_status berth_register_exit(napi_env env, napi_value exports);

/* malloc.c registers trimMalloc: malloc_trim(0). */
napi_status berth_register_malloc(napi_env env, napi_value exports);
/* lock.c registers lockExclusive: flock(fd, LOCK_EX | LOCK_NB). */
napi_status berth_register_lock(napi_env env, napi_value exports);
/* du.c registers diskUsage: a directory tree's usage, walked on the thread pool. */
napi_status berth_register_du(napi_env env, napi_value exports);
/* remove.c registers removeTree: a directory tree removed on the thread pool, in steps. */
napi_status berth_register_remove(napi_env env, napi_value exports);

/* A directory tree being removed by descriptor (remove.c): `name` under parentfd, which stays the
 * caller's. */
#include <dirent.h>
#include <limits.h>
struct berth_removal {
  int parentfd;
  char name[NAME_MAX + 1];
  /* The directory being emptied (-1 before the first step) and its listing. */
  int fd;
  DIR *dir;
  long depth;
};
void berth_removal_init(struct berth_removal *r, int parentfd, const char *name);
/* Removes up to about `budget` entries: 1 once the tree is gone, 0 with more left, -1 with errno
 * set (then berth_removal_abort). */
int berth_removal_step(struct berth_removal *r, long budget);
/* Closes what a removal holds open, errno kept. */
void berth_removal_abort(struct berth_removal *r);
/* Empties and removes the directory `name` under parentfd in one go; 0, or -1 with errno set. */
int berth_remove_tree(int parentfd, const char *name);
#endif
