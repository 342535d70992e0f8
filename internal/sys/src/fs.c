/* Filesystem calls Node has no binding for: mount/umount2, mknod/mkfifo and the l*xattr family.
 * All are synchronous: each is one short system call, cheaper than a trip through the thread pool.
 * Callers that do many (layer apply) interleave them with awaits so the event loop keeps turning. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include "addon.h"

#define XATTR_LIST_MAX_BYTES 65536
#define XATTR_VALUE_MAX_BYTES 65536

static napi_value throw_type(napi_env env, const char *msg) {
  napi_throw_type_error(env, NULL, msg);
  return NULL;
}

/* "<what> <problem>" as a TypeError, so every argument error names the argument. */
static napi_value throw_arg_type(napi_env env, const char *what, const char *problem) {
  char msg[128];
  snprintf(msg, sizeof msg, "%s %s", what, problem);
  return throw_type(env, msg);
}

/* malloc that throws (and returns NULL) when memory is out. */
static void *alloc_or_throw(napi_env env, size_t size) {
  void *buf = malloc(size);
  if (buf == NULL) napi_throw_error(env, NULL, "out of memory");
  return buf;
}

/* Reads argument i as a UTF-8 string into a fresh malloc'd buffer; NULL (with a pending JS
 * exception) when it is not a string. The caller frees. */
static char *arg_string(napi_env env, napi_value value, const char *what) {
  size_t len = 0;
  if (napi_get_value_string_utf8(env, value, NULL, 0, &len) != napi_ok) {
    throw_arg_type(env, what, "must be a string");
    return NULL;
  }
  char *buf = alloc_or_throw(env, len + 1);
  if (buf == NULL) return NULL;
  napi_get_value_string_utf8(env, value, buf, len + 1, &len);
  if (strlen(buf) != len) { /* an embedded NUL would silently truncate the path */
    free(buf);
    throw_arg_type(env, what, "contains a NUL byte");
    return NULL;
  }
  return buf;
}

static int arg_int64(napi_env env, napi_value value, const char *what, int64_t *out) {
  if (napi_get_value_int64(env, value, out) != napi_ok) {
    throw_arg_type(env, what, "must be a number");
    return -1;
  }
  return 0;
}

/* The xattr calls' leading (path, name) pair. Both outputs start NULL; the caller frees both,
 * whether this succeeded or not. */
static int arg_path_and_name(napi_env env, napi_value *argv, char **path, char **name) {
  if ((*path = arg_string(env, argv[0], "path")) == NULL) return -1;
  if ((*name = arg_string(env, argv[1], "name")) == NULL) return -1;
  return 0;
}

static int get_args(napi_env env, napi_callback_info info, size_t want, napi_value *argv) {
  size_t argc = want;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < want) {
    throw_type(env, "too few arguments");
    return -1;
  }
  return 0;
}

static napi_value undefined(napi_env env) {
  napi_value v;
  napi_get_undefined(env, &v);
  return v;
}

/* The result of a call that returns 0 or -1/errno: undefined, or a thrown errno Error naming
 * the call and path. errno is read here, right after the call, before anything can clobber it. */
static napi_value void_result(napi_env env, int rc, const char *call, const char *path) {
  if (rc != 0) return berth_throw_errno(env, errno, call, path);
  return undefined(env);
}

/* mount(source, target, fstype, flags, data) */
static napi_value js_mount(napi_env env, napi_callback_info info) {
  napi_value argv[5];
  if (get_args(env, info, 5, argv) != 0) return NULL;
  char *source = NULL, *target = NULL, *fstype = NULL, *data = NULL;
  int64_t flags = 0;
  napi_value result = NULL;
  if ((source = arg_string(env, argv[0], "source")) == NULL) goto out;
  if ((target = arg_string(env, argv[1], "target")) == NULL) goto out;
  if ((fstype = arg_string(env, argv[2], "fstype")) == NULL) goto out;
  if (arg_int64(env, argv[3], "flags", &flags) != 0) goto out;
  if ((data = arg_string(env, argv[4], "data")) == NULL) goto out;
  result = void_result(env, mount(source, target, fstype, (unsigned long)flags, data[0] ? data : NULL), "mount",
                       target);
out:
  free(source);
  free(target);
  free(fstype);
  free(data);
  return result;
}

/* A mount made with `dir` as the working directory, so that relative paths in its data (overlay's
 * lowerdir) are taken from there: on a thread of its own that stops sharing the process's working
 * directory first (unshare(CLONE_FS)), as containerd's mountAt forks a helper; the rest of the
 * process never sees the change. */
struct mount_in_job {
  const char *dir, *source, *target, *fstype, *data;
  unsigned long flags;
  int rc, err;
  const char *failed_call;
};

static void *mount_in_thread(void *arg) {
  struct mount_in_job *job = arg;
  if (unshare(CLONE_FS) != 0) {
    job->rc = -1, job->err = errno, job->failed_call = "unshare(CLONE_FS)";
  } else if (chdir(job->dir) != 0) {
    job->rc = -1, job->err = errno, job->failed_call = "chdir";
  } else {
    job->rc = mount(job->source, job->target, job->fstype, job->flags, job->data[0] ? job->data : NULL);
    job->err = job->rc != 0 ? errno : 0;
    job->failed_call = "mount";
  }
  return NULL;
}

/* mountIn(dir, source, target, fstype, flags, data): mount(2) with `dir` as the working directory. */
static napi_value js_mount_in(napi_env env, napi_callback_info info) {
  napi_value argv[6];
  if (get_args(env, info, 6, argv) != 0) return NULL;
  char *dir = NULL, *source = NULL, *target = NULL, *fstype = NULL, *data = NULL;
  int64_t flags = 0;
  napi_value result = NULL;
  if ((dir = arg_string(env, argv[0], "dir")) == NULL) goto out;
  if ((source = arg_string(env, argv[1], "source")) == NULL) goto out;
  if ((target = arg_string(env, argv[2], "target")) == NULL) goto out;
  if ((fstype = arg_string(env, argv[3], "fstype")) == NULL) goto out;
  if (arg_int64(env, argv[4], "flags", &flags) != 0) goto out;
  if ((data = arg_string(env, argv[5], "data")) == NULL) goto out;
  struct mount_in_job job = {dir, source, target, fstype, data, (unsigned long)flags, 0, 0, "mount"};
  pthread_t thread;
  int rc = pthread_create(&thread, NULL, mount_in_thread, &job);
  if (rc != 0) {
    result = berth_throw_errno(env, rc, "pthread_create", target);
    goto out;
  }
  pthread_join(thread, NULL);
  if (job.rc != 0) {
    result = berth_throw_errno(env, job.err, job.failed_call, strcmp(job.failed_call, "chdir") == 0 ? dir : target);
  } else {
    result = undefined(env);
  }
out:
  free(dir);
  free(source);
  free(target);
  free(fstype);
  free(data);
  return result;
}

/* umount2(target, flags) */
static napi_value js_umount2(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  if (get_args(env, info, 2, argv) != 0) return NULL;
  int64_t flags = 0;
  char *target = arg_string(env, argv[0], "target");
  if (target == NULL) return NULL;
  napi_value result = NULL;
  if (arg_int64(env, argv[1], "flags", &flags) == 0)
    result = void_result(env, umount2(target, (int)flags), "umount2", target);
  free(target);
  return result;
}

/* mknod(path, mode, major, minor): mode carries the file type bits (S_IFCHR, S_IFBLK, ...). */
static napi_value js_mknod(napi_env env, napi_callback_info info) {
  napi_value argv[4];
  if (get_args(env, info, 4, argv) != 0) return NULL;
  int64_t mode, major_n, minor_n;
  if (arg_int64(env, argv[1], "mode", &mode) != 0) return NULL;
  if (arg_int64(env, argv[2], "major", &major_n) != 0) return NULL;
  if (arg_int64(env, argv[3], "minor", &minor_n) != 0) return NULL;
  char *path = arg_string(env, argv[0], "path");
  if (path == NULL) return NULL;
  napi_value result =
      void_result(env, mknod(path, (mode_t)mode, makedev((unsigned)major_n, (unsigned)minor_n)), "mknod", path);
  free(path);
  return result;
}

/* mkfifo(path, mode) */
static napi_value js_mkfifo(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  if (get_args(env, info, 2, argv) != 0) return NULL;
  int64_t mode;
  if (arg_int64(env, argv[1], "mode", &mode) != 0) return NULL;
  char *path = arg_string(env, argv[0], "path");
  if (path == NULL) return NULL;
  napi_value result = void_result(env, mkfifo(path, (mode_t)mode), "mkfifo", path);
  free(path);
  return result;
}

/* lsetxattr(path, name, value Buffer, flags) */
static napi_value js_lsetxattr(napi_env env, napi_callback_info info) {
  napi_value argv[4];
  if (get_args(env, info, 4, argv) != 0) return NULL;
  bool is_buffer = false;
  napi_is_buffer(env, argv[2], &is_buffer);
  if (!is_buffer) return throw_type(env, "value must be a Buffer");
  void *value = NULL;
  size_t value_len = 0;
  napi_get_buffer_info(env, argv[2], &value, &value_len);
  int64_t flags;
  if (arg_int64(env, argv[3], "flags", &flags) != 0) return NULL;
  char *path = NULL, *name = NULL;
  napi_value result = NULL;
  if (arg_path_and_name(env, argv, &path, &name) == 0)
    result = void_result(env, lsetxattr(path, name, value, value_len, (int)flags), "lsetxattr", path);
  free(path);
  free(name);
  return result;
}

/* lgetxattr(path, name) -> Buffer, or null when the attribute is absent (ENODATA). */
static napi_value js_lgetxattr(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  if (get_args(env, info, 2, argv) != 0) return NULL;
  char *path = NULL, *name = NULL;
  napi_value result = NULL;
  char *buf = alloc_or_throw(env, XATTR_VALUE_MAX_BYTES);
  if (buf == NULL) return NULL;
  if (arg_path_and_name(env, argv, &path, &name) != 0) goto out;
  ssize_t n = lgetxattr(path, name, buf, XATTR_VALUE_MAX_BYTES);
  if (n < 0) {
    if (errno == ENODATA)
      napi_get_null(env, &result);
    else
      berth_throw_errno(env, errno, "lgetxattr", path);
    goto out;
  }
  void *copy;
  napi_create_buffer_copy(env, (size_t)n, buf, &copy, &result);
out:
  free(buf);
  free(path);
  free(name);
  return result;
}

/* llistxattr(path) -> string[] */
static napi_value js_llistxattr(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  if (get_args(env, info, 1, argv) != 0) return NULL;
  char *path = arg_string(env, argv[0], "path");
  if (path == NULL) return NULL;
  napi_value result = NULL;
  char *buf = alloc_or_throw(env, XATTR_LIST_MAX_BYTES);
  if (buf == NULL) goto out;
  ssize_t n = llistxattr(path, buf, XATTR_LIST_MAX_BYTES);
  if (n < 0) {
    berth_throw_errno(env, errno, "llistxattr", path);
    goto out;
  }
  napi_create_array(env, &result);
  uint32_t index = 0;
  for (ssize_t off = 0; off < n;) {
    size_t len = strnlen(buf + off, (size_t)(n - off));
    napi_value name;
    napi_create_string_utf8(env, buf + off, len, &name);
    napi_set_element(env, result, index++, name);
    off += (ssize_t)len + 1;
  }
out:
  free(buf);
  free(path);
  return result;
}

/* lremovexattr(path, name) */
static napi_value js_lremovexattr(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  if (get_args(env, info, 2, argv) != 0) return NULL;
  char *path = NULL, *name = NULL;
  napi_value result = NULL;
  if (arg_path_and_name(env, argv, &path, &name) == 0)
    result = void_result(env, lremovexattr(path, name), "lremovexattr", path);
  free(path);
  free(name);
  return result;
}

/* markTopDir(path) -> true, or false where the filesystem keeps no inode flags. Sets FS_TOPDIR_FL
 * (chattr +T) on a directory: ext4's Orlov allocator then spreads its subdirectories over block
 * groups as unrelated trees instead of packing them beside it. Never follows a symlink. */
static napi_value js_mark_top_dir(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  if (get_args(env, info, 1, argv) != 0) return NULL;
  char *path = arg_string(env, argv[0], "path");
  if (path == NULL) return NULL;
  napi_value result = NULL;
  int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    berth_throw_errno(env, errno, "open", path);
    goto out;
  }
  int flags = 0;
  int rc = ioctl(fd, FS_IOC_GETFLAGS, &flags);
  if (rc == 0 && !(flags & FS_TOPDIR_FL)) {
    flags |= FS_TOPDIR_FL;
    rc = ioctl(fd, FS_IOC_SETFLAGS, &flags);
  }
  int err = errno;
  close(fd);
  if (rc != 0 && err != ENOTTY && err != EOPNOTSUPP && err != EINVAL) {
    berth_throw_errno(env, err, "ioctl(FS_IOC_SETFLAGS)", path);
    goto out;
  }
  napi_get_boolean(env, rc == 0, &result);
out:
  free(path);
  return result;
}

napi_status berth_register_fs(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"mount", NULL, js_mount, NULL, NULL, NULL, napi_default, NULL},
      {"mountIn", NULL, js_mount_in, NULL, NULL, NULL, napi_default, NULL},
      {"umount2", NULL, js_umount2, NULL, NULL, NULL, napi_default, NULL},
      {"mknod", NULL, js_mknod, NULL, NULL, NULL, napi_default, NULL},
      {"mkfifo", NULL, js_mkfifo, NULL, NULL, NULL, napi_default, NULL},
      {"lsetxattr", NULL, js_lsetxattr, NULL, NULL, NULL, napi_default, NULL},
      {"lgetxattr", NULL, js_lgetxattr, NULL, NULL, NULL, napi_default, NULL},
      {"llistxattr", NULL, js_llistxattr, NULL, NULL, NULL, napi_default, NULL},
      {"lremovexattr", NULL, js_lremovexattr, NULL, NULL, NULL, napi_default, NULL},
      {"markTopDir", NULL, js_mark_top_dir, NULL, NULL, NULL, napi_default, NULL},
  };
  return napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
}
