/* berth's native system calls: the few Linux calls Node has no binding for. */
#ifndef BERTH_SYS_ADDON_H
#define BERTH_SYS_ADDON_H
#define NAPI_VERSION 8
#include <node_api.h>

/* A JS Error carrying errno's code (e.g. "EPERM") and the call that failed, to throw or reject with. */
napi_value berth_errno_error(napi_env env, int err, const char *call, const char *path);
/* Throws a JS Error carrying errno's code (e.g. "EPERM") and the call that failed. */
napi_value berth_throw_errno(napi_env env, int err, const char *call, const char *path);

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
#endif
