/* File operations relative to an open directory, never following a symlink: what layer apply
 * needs so that no path from a layer can reach outside the layer root. Every name argument is a
 * single path component ("" where noted: the directory fd itself); the final component is never
 * followed (O_NOFOLLOW, AT_SYMLINK_NOFOLLOW, or the /proc/self/fd/N/name form for xattrs, whose
 * last component lsetxattr does not follow either). openDirBeneath resolves a multi-component
 * path with openat2(RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS), or component by component with
 * openat(O_NOFOLLOW) on kernels without openat2. Synchronous, like fs.c: each call is one or two
 * short system calls. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <unistd.h>
#include "addon.h"

/* Not every libc's headers know these (openat2: Linux 5.6, fchmodat2: 6.6); the numbers are the
 * same on every architecture that has the unified syscall table. */
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif
#define BERTH_RESOLVE_NO_MAGICLINKS 0x02
#define BERTH_RESOLVE_NO_SYMLINKS 0x04
#define BERTH_RESOLVE_BENEATH 0x08

struct berth_open_how {
  uint64_t flags;
  uint64_t mode;
  uint64_t resolve;
};

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#define XATTR_VALUE_MAX_BYTES 65536
#define XATTR_LIST_MAX_BYTES 65536

/* 0: unknown, 1: the kernel has openat2, -1: it does not (or a seccomp filter hides it). */
static int have_openat2 = 0;
/* The same for fchmodat2. */
static int have_fchmodat2 = 0;

static napi_value undefined(napi_env env) {
  napi_value v;
  napi_get_undefined(env, &v);
  return v;
}

static napi_value null_value(napi_env env) {
  napi_value v;
  napi_get_null(env, &v);
  return v;
}

static napi_value int_value(napi_env env, int64_t n) {
  napi_value v;
  napi_create_int64(env, n, &v);
  return v;
}

static int get_args(napi_env env, napi_callback_info info, size_t want, napi_value *argv) {
  size_t argc = want;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < want) {
    napi_throw_type_error(env, NULL, "too few arguments");
    return -1;
  }
  return 0;
}

static int arg_int(napi_env env, napi_value value, const char *what, int64_t *out) {
  if (napi_get_value_int64(env, value, out) != napi_ok) {
    char msg[96];
    snprintf(msg, sizeof msg, "%s must be a number", what);
    napi_throw_type_error(env, NULL, msg);
    return -1;
  }
  return 0;
}

static int arg_fd(napi_env env, napi_value value, int *fd) {
  int64_t n;
  if (arg_int(env, value, "fd", &n) != 0) return -1;
  if (n < 0 || n > INT32_MAX) {
    napi_throw_type_error(env, NULL, "fd must be a file descriptor");
    return -1;
  }
  *fd = (int)n;
  return 0;
}

/* A string (UTF-8) or Buffer (the bytes as they are: names from a tar need not be UTF-8) argument
 * into buf (size bytes); ENAMETOOLONG when it does not fit, a TypeError for anything else or an
 * embedded NUL. */
static int arg_text(napi_env env, napi_value value, const char *what, char *buf, size_t size) {
  size_t len = 0;
  bool is_buffer = false;
  if (napi_is_buffer(env, value, &is_buffer) == napi_ok && is_buffer) {
    void *data;
    if (napi_get_buffer_info(env, value, &data, &len) != napi_ok) return -1;
    if (len >= size) {
      berth_throw_errno(env, ENAMETOOLONG, what, NULL);
      return -1;
    }
    if (memchr(data, 0, len) != NULL) {
      char msg[96];
      snprintf(msg, sizeof msg, "%s contains a NUL byte", what);
      napi_throw_type_error(env, NULL, msg);
      return -1;
    }
    memcpy(buf, data, len);
    buf[len] = 0;
    return 0;
  }
  if (napi_get_value_string_utf8(env, value, NULL, 0, &len) != napi_ok) {
    char msg[96];
    snprintf(msg, sizeof msg, "%s must be a string", what);
    napi_throw_type_error(env, NULL, msg);
    return -1;
  }
  if (len >= size) {
    berth_throw_errno(env, ENAMETOOLONG, what, NULL);
    return -1;
  }
  napi_get_value_string_utf8(env, value, buf, size, &len);
  if (strlen(buf) != len) {
    char msg[96];
    snprintf(msg, sizeof msg, "%s contains a NUL byte", what);
    napi_throw_type_error(env, NULL, msg);
    return -1;
  }
  return 0;
}

/* One path component: no "/", not "." nor ".."; "" only when allow_self (the fd itself). */
static int arg_name(napi_env env, napi_value value, char *buf, int allow_self) {
  if (arg_text(env, value, "name", buf, NAME_MAX + 1) != 0) return -1;
  int bad = strchr(buf, '/') != NULL || strcmp(buf, ".") == 0 || strcmp(buf, "..") == 0 || (!allow_self && buf[0] == 0);
  if (bad) {
    char msg[NAME_MAX + 64];
    snprintf(msg, sizeof msg, "name \"%s\" is not a single path component", buf);
    napi_throw_type_error(env, NULL, msg);
    return -1;
  }
  return 0;
}

static napi_value fd_result(napi_env env, int fd, const char *call, const char *name) {
  if (fd < 0) return berth_throw_errno(env, errno, call, name);
  return int_value(env, fd);
}

static napi_value void_result(napi_env env, int rc, const char *call, const char *name) {
  if (rc != 0) return berth_throw_errno(env, errno, call, name);
  return undefined(env);
}

/* --- resolution beneath a directory ------------------------------------------------------- */

/* openat2 when the kernel has it; -2 (errno untouched) when it does not. */
static int try_openat2(int dirfd, const char *path, uint64_t flags) {
  if (have_openat2 < 0) return -2;
  struct berth_open_how how = {
      .flags = flags,
      .mode = 0,
      .resolve = BERTH_RESOLVE_BENEATH | BERTH_RESOLVE_NO_SYMLINKS | BERTH_RESOLVE_NO_MAGICLINKS,
  };
  for (int attempt = 0; attempt < 8; attempt++) {
    long fd = syscall(SYS_openat2, dirfd, path, &how, sizeof how);
    if (fd >= 0) {
      have_openat2 = 1;
      return (int)fd;
    }
    /* ENOSYS: no openat2; EPERM as well when a seccomp profile blocks unknown calls that way. */
    if (have_openat2 == 0 && (errno == ENOSYS || errno == EPERM)) {
      have_openat2 = -1;
      return -2;
    }
    if (errno != EAGAIN && errno != EINTR) return -1; /* EAGAIN: a rename raced the walk */
  }
  return -1;
}

/* The fallback: one openat(O_NOFOLLOW) per component, each from the directory before it. */
static int walk_beneath(int dirfd, const char *path) {
  char buf[PATH_MAX];
  snprintf(buf, sizeof buf, "%s", path);
  int cur = openat(dirfd, ".", DIR_FLAGS);
  if (cur < 0) return -1;
  char *save = NULL;
  for (char *part = strtok_r(buf, "/", &save); part != NULL; part = strtok_r(NULL, "/", &save)) {
    if (strcmp(part, ".") == 0) continue;
    if (strcmp(part, "..") == 0) {
      close(cur);
      errno = EXDEV; /* what RESOLVE_BENEATH answers for a ".." */
      return -1;
    }
    int next = openat(cur, part, DIR_FLAGS);
    int saved = errno;
    /* O_DIRECTORY answers ENOTDIR for a symlink; openat2 answers ELOOP: say the same. */
    struct stat st;
    if (next < 0 && saved == ENOTDIR && fstatat(cur, part, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
      saved = ELOOP;
    close(cur);
    if (next < 0) {
      errno = saved;
      return -1;
    }
    cur = next;
  }
  return cur;
}

/* openDirBeneath(dirfd, path) -> fd of the directory at `path` under dirfd, reached without a
 * symlink, "..", or magic link anywhere (ELOOP, ENOTDIR, ENOENT or EXDEV otherwise). */
static napi_value js_open_dir_beneath(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  char path[PATH_MAX];
  int dirfd;
  if (get_args(env, info, 2, argv) != 0 || arg_fd(env, argv[0], &dirfd) != 0) return NULL;
  if (arg_text(env, argv[1], "path", path, sizeof path) != 0) return NULL;
  const char *p = path[0] == 0 ? "." : path;
  if (p[0] == '/') return berth_throw_errno(env, EXDEV, "openat2", path);
  int fd = try_openat2(dirfd, p, DIR_FLAGS);
  if (fd == -2) fd = walk_beneath(dirfd, p);
  return fd_result(env, fd, "openat2", path);
}

/* --- single-component operations --------------------------------------------------------- */

/* openDirAt(dirfd, name) -> fd; a symlink or non-directory at name fails (ELOOP / ENOTDIR). */
static napi_value js_open_dir_at(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  char name[NAME_MAX + 1];
  int dirfd;
  if (get_args(env, info, 2, argv) != 0 || arg_fd(env, argv[0], &dirfd) != 0) return NULL;
  if (arg_name(env, argv[1], name, 0) != 0) return NULL;
  return fd_result(env, openat(dirfd, name, DIR_FLAGS), "openat", name);
}

/* createFileAt(dirfd, name, mode) -> fd open for writing; EEXIST when anything is there. */
static napi_value js_create_file_at(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  char name[NAME_MAX + 1];
  int dirfd;
  int64_t mode;
  if (get_args(env, info, 3, argv) != 0 || arg_fd(env, argv[0], &dirfd) != 0) return NULL;
  if (arg_name(env, argv[1], name, 0) != 0 || arg_int(env, argv[2], "mode", &mode) != 0) return NULL;
  int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, (mode_t)mode);
  return fd_result(env, fd, "openat", name);
}

/* mkdirAt(dirfd, name, mode) */
static napi_value js_mkdir_at(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  char name[NAME_MAX + 1];
  int dirfd;
  int64_t mode;
  if (get_args(env, info, 3, argv) != 0 || arg_fd(env, argv[0], &dirfd) != 0) return NULL;
  if (arg_name(env, argv[1], name, 0) != 0 || arg_int(env, argv[2], "mode", &mode) != 0) return NULL;
  return void_result(env, mkdirat(dirfd, name, (mode_t)mode), "mkdirat", name);
}

/* symlinkAt(target, dirfd, name) */
static napi_value js_symlink_at(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  char target[PATH_MAX], name[NAME_MAX + 1];
  int dirfd;
  if (get_args(env, info, 3, argv) != 0) return NULL;
  if (arg_text(env, argv[0], "target", target, sizeof target) != 0) return NULL;
  if (arg_fd(env, argv[1], &dirfd) != 0 || arg_name(env, argv[2], name, 0) != 0) return NULL;
  return void_result(env, symlinkat(target, dirfd, name), "symlinkat", name);
}

/* linkAt(olddirfd, oldname, newdirfd, newname): a hard link; a symlink at oldname is linked
 * itself, never followed. */
static napi_value js_link_at(napi_env env, napi_callback_info info) {
  napi_value argv[4];
  char oldname[NAME_MAX + 1], newname[NAME_MAX + 1];
  int olddirfd, newdirfd;
  if (get_args(env, info, 4, argv) != 0) return NULL;
  if (arg_fd(env, argv[0], &olddirfd) != 0 || arg_name(env, argv[1], oldname, 0) != 0) return NULL;
  if (arg_fd(env, argv[2], &newdirfd) != 0 || arg_name(env, argv[3], newname, 0) != 0) return NULL;
  return void_result(env, linkat(olddirfd, oldname, newdirfd, newname, 0), "linkat", newname);
}

/* mknodAt(dirfd, name, mode, major, minor): mode carries the type bits (S_IFCHR, S_IFIFO...). */
static napi_value js_mknod_at(napi_env env, napi_callback_info info) {
  napi_value argv[5];
  char name[NAME_MAX + 1];
  int dirfd;
  int64_t mode, major_n, minor_n;
  if (get_args(env, info, 5, argv) != 0 || arg_fd(env, argv[0], &dirfd) != 0) return NULL;
  if (arg_name(env, argv[1], name, 0) != 0 || arg_int(env, argv[2], "mode", &mode) != 0) return NULL;
  if (arg_int(env, argv[3], "major", &major_n) != 0 || arg_int(env, argv[4], "minor", &minor_n) != 0) return NULL;
  dev_t dev = makedev((unsigned)major_n, (unsigned)minor_n);
  return void_result(env, mknodat(dirfd, name, (mode_t)mode, dev), "mknodat", name);
}

/* readlinkAt(dirfd, name) -> the target as a Buffer (its bytes, UTF-8 or not), or null when name
 * is not a symlink. */
static napi_value js_readlink_at(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  char name[NAME_MAX + 1], target[PATH_MAX];
  int dirfd;
  if (get_args(env, info, 2, argv) != 0 || arg_fd(env, argv[0], &dirfd) != 0) return NULL;
  if (arg_name(env, argv[1], name, 0) != 0) return NULL;
  ssize_t n = readlinkat(dirfd, name, target, sizeof target);
  if (n < 0) return errno == EINVAL ? null_value(env) : berth_throw_errno(env, errno, "readlinkat", name);
  if ((size_t)n >= sizeof target) return berth_throw_errno(env, ENAMETOOLONG, "readlinkat", name);
  napi_value result;
  napi_create_buffer_copy(env, (size_t)n, target, NULL, &result);
  return result;
}

/* statAt(dirfd, name) -> [mode, uid, gid, atimeSec, atimeNsec, mtimeSec, mtimeNsec], or null when
 * nothing is there; "" stats dirfd itself. */
static napi_value js_stat_at(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  char name[NAME_MAX + 1];
  int dirfd;
  if (get_args(env, info, 2, argv) != 0 || arg_fd(env, argv[0], &dirfd) != 0) return NULL;
  if (arg_name(env, argv[1], name, 1) != 0) return NULL;
  struct stat st;
  int flags = AT_SYMLINK_NOFOLLOW | (name[0] == 0 ? AT_EMPTY_PATH : 0);
  if (fstatat(dirfd, name, &st, flags) != 0) {
    return errno == ENOENT ? null_value(env) : berth_throw_errno(env, errno, "fstatat", name);
  }
  const int64_t fields[] = {st.st_mode, st.st_uid, st.st_gid, st.st_atim.tv_sec, st.st_atim.tv_nsec,
                            st.st_mtim.tv_sec, st.st_mtim.tv_nsec};
  napi_value result;
  napi_create_array_with_length(env, 7, &result);
  for (uint32_t i = 0; i < 7; i++) napi_set_element(env, result, i, int_value(env, fields[i]));
  return result;
}

/* fchownAt(dirfd, name, uid, gid); "" changes dirfd itself. */
static napi_value js_fchown_at(napi_env env, napi_callback_info info) {
  napi_value argv[4];
  char name[NAME_MAX + 1];
  int dirfd;
  int64_t uid, gid;
  if (get_args(env, info, 4, argv) != 0 || arg_fd(env, argv[0], &dirfd) != 0) return NULL;
  if (arg_name(env, argv[1], name, 1) != 0) return NULL;
  if (arg_int(env, argv[2], "uid", &uid) != 0 || arg_int(env, argv[3], "gid", &gid) != 0) return NULL;
  int flags = AT_SYMLINK_NOFOLLOW | (name[0] == 0 ? AT_EMPTY_PATH : 0);
  return void_result(env, fchownat(dirfd, name, (uid_t)uid, (gid_t)gid, flags), "fchownat", name);
}

/* fchmodAt(dirfd, name, mode); "" changes dirfd itself. A symlink at name fails (EOPNOTSUPP). */
static napi_value js_fchmod_at(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  char name[NAME_MAX + 1];
  int dirfd;
  int64_t mode;
  if (get_args(env, info, 3, argv) != 0 || arg_fd(env, argv[0], &dirfd) != 0) return NULL;
  if (arg_name(env, argv[1], name, 1) != 0 || arg_int(env, argv[2], "mode", &mode) != 0) return NULL;
  if (name[0] == 0) return void_result(env, fchmod(dirfd, (mode_t)mode), "fchmod", name);
  if (have_fchmodat2 >= 0) {
    long rc = syscall(SYS_fchmodat2, dirfd, name, (mode_t)mode, AT_SYMLINK_NOFOLLOW);
    if (rc == 0 || (errno != ENOSYS && errno != EPERM) || have_fchmodat2 > 0) {
      if (rc == 0) have_fchmodat2 = 1;
      return void_result(env, (int)rc, "fchmodat2", name);
    }
    have_fchmodat2 = -1;
  }
  /* glibc emulates the flag with an O_PATH descriptor and its /proc/self/fd path. */
  return void_result(env, fchmodat(dirfd, name, (mode_t)mode, AT_SYMLINK_NOFOLLOW), "fchmodat", name);
}

/* utimensAt(dirfd, name, atimeSec, atimeNsec, mtimeSec, mtimeNsec); "" changes dirfd itself. */
static napi_value js_utimens_at(napi_env env, napi_callback_info info) {
  napi_value argv[6];
  char name[NAME_MAX + 1];
  int dirfd;
  int64_t t[4];
  if (get_args(env, info, 6, argv) != 0 || arg_fd(env, argv[0], &dirfd) != 0) return NULL;
  if (arg_name(env, argv[1], name, 1) != 0) return NULL;
  for (int i = 0; i < 4; i++)
    if (arg_int(env, argv[2 + i], "time", &t[i]) != 0) return NULL;
  const struct timespec ts[2] = {{.tv_sec = t[0], .tv_nsec = t[1]}, {.tv_sec = t[2], .tv_nsec = t[3]}};
  int rc = name[0] == 0 ? futimens(dirfd, ts) : utimensat(dirfd, name, ts, AT_SYMLINK_NOFOLLOW);
  return void_result(env, rc, "utimensat", name);
}

/* setxattrAt(dirfd, name, xattrName, value Buffer); "" sets it on dirfd itself. For a name, the
 * call goes through /proc/self/fd/<dirfd>/<name>: the directory is pinned by its fd and lsetxattr
 * does not follow the last component. */
static napi_value js_setxattr_at(napi_env env, napi_callback_info info) {
  napi_value argv[4];
  char name[NAME_MAX + 1], xname[XATTR_NAME_MAX + 1];
  int dirfd;
  if (get_args(env, info, 4, argv) != 0 || arg_fd(env, argv[0], &dirfd) != 0) return NULL;
  if (arg_name(env, argv[1], name, 1) != 0) return NULL;
  if (arg_text(env, argv[2], "xattr name", xname, sizeof xname) != 0) return NULL;
  bool is_buffer = false;
  napi_is_buffer(env, argv[3], &is_buffer);
  if (!is_buffer) {
    napi_throw_type_error(env, NULL, "value must be a Buffer");
    return NULL;
  }
  void *value = NULL;
  size_t value_len = 0;
  napi_get_buffer_info(env, argv[3], &value, &value_len);
  if (name[0] == 0) return void_result(env, fsetxattr(dirfd, xname, value, value_len, 0), "fsetxattr", xname);
  char path[64 + NAME_MAX];
  snprintf(path, sizeof path, "/proc/self/fd/%d/%s", dirfd, name);
  return void_result(env, lsetxattr(path, xname, value, value_len, 0), "lsetxattr", name);
}

/* listXattrs(fd) -> string[] */
static napi_value js_list_xattrs(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  int fd;
  if (get_args(env, info, 1, argv) != 0 || arg_fd(env, argv[0], &fd) != 0) return NULL;
  char *buf = malloc(XATTR_LIST_MAX_BYTES);
  if (buf == NULL) return berth_throw_errno(env, ENOMEM, "flistxattr", NULL);
  ssize_t n = flistxattr(fd, buf, XATTR_LIST_MAX_BYTES);
  napi_value result = NULL;
  if (n < 0) {
    if (errno == ENOTSUP) n = 0; /* a filesystem without xattrs has none to list */
    else {
      berth_throw_errno(env, errno, "flistxattr", NULL);
      free(buf);
      return NULL;
    }
  }
  napi_create_array(env, &result);
  uint32_t index = 0;
  for (ssize_t off = 0; off < n;) {
    size_t len = strnlen(buf + off, (size_t)(n - off));
    napi_value xname;
    napi_create_string_utf8(env, buf + off, len, &xname);
    napi_set_element(env, result, index++, xname);
    off += (ssize_t)len + 1;
  }
  free(buf);
  return result;
}

/* getXattr(fd, xattrName) -> Buffer, or null when fd has no such attribute. */
static napi_value js_get_xattr(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  char xname[XATTR_NAME_MAX + 1];
  int fd;
  if (get_args(env, info, 2, argv) != 0 || arg_fd(env, argv[0], &fd) != 0) return NULL;
  if (arg_text(env, argv[1], "xattr name", xname, sizeof xname) != 0) return NULL;
  char *buf = malloc(XATTR_VALUE_MAX_BYTES);
  if (buf == NULL) return berth_throw_errno(env, ENOMEM, "fgetxattr", xname);
  ssize_t n = fgetxattr(fd, xname, buf, XATTR_VALUE_MAX_BYTES);
  napi_value result = NULL;
  if (n < 0) {
    if (errno == ENODATA) result = null_value(env);
    else berth_throw_errno(env, errno, "fgetxattr", xname);
  } else {
    void *copy;
    napi_create_buffer_copy(env, (size_t)n, buf, &copy, &result);
  }
  free(buf);
  return result;
}

/* --- removal ------------------------------------------------------------------------------ */

/* removeAt(dirfd, name) -> what was there and is now gone: "missing" (nothing was),
 * "directory" (with all its content), "symlink" or "other". */
static napi_value js_remove_at(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  char name[NAME_MAX + 1];
  int dirfd;
  if (get_args(env, info, 2, argv) != 0 || arg_fd(env, argv[0], &dirfd) != 0) return NULL;
  if (arg_name(env, argv[1], name, 0) != 0) return NULL;
  struct stat st;
  const char *kind;
  if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno != ENOENT) return berth_throw_errno(env, errno, "fstatat", name);
    kind = "missing";
  } else if (S_ISDIR(st.st_mode)) {
    kind = "directory";
    if (unlinkat(dirfd, name, AT_REMOVEDIR) != 0) {
      if (errno != ENOTEMPTY && errno != EEXIST) return berth_throw_errno(env, errno, "unlinkat", name);
      if (berth_remove_tree(dirfd, name) != 0) return berth_throw_errno(env, errno, "unlinkat", name);
    }
  } else {
    kind = S_ISLNK(st.st_mode) ? "symlink" : "other";
    if (unlinkat(dirfd, name, 0) != 0) return berth_throw_errno(env, errno, "unlinkat", name);
  }
  napi_value result;
  napi_create_string_utf8(env, kind, NAPI_AUTO_LENGTH, &result);
  return result;
}

napi_status berth_register_fsat(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"openDirBeneath", NULL, js_open_dir_beneath, NULL, NULL, NULL, napi_default, NULL},
      {"openDirAt", NULL, js_open_dir_at, NULL, NULL, NULL, napi_default, NULL},
      {"createFileAt", NULL, js_create_file_at, NULL, NULL, NULL, napi_default, NULL},
      {"mkdirAt", NULL, js_mkdir_at, NULL, NULL, NULL, napi_default, NULL},
      {"symlinkAt", NULL, js_symlink_at, NULL, NULL, NULL, napi_default, NULL},
      {"linkAt", NULL, js_link_at, NULL, NULL, NULL, napi_default, NULL},
      {"mknodAt", NULL, js_mknod_at, NULL, NULL, NULL, napi_default, NULL},
      {"readlinkAt", NULL, js_readlink_at, NULL, NULL, NULL, napi_default, NULL},
      {"statAt", NULL, js_stat_at, NULL, NULL, NULL, napi_default, NULL},
      {"fchownAt", NULL, js_fchown_at, NULL, NULL, NULL, napi_default, NULL},
      {"fchmodAt", NULL, js_fchmod_at, NULL, NULL, NULL, napi_default, NULL},
      {"utimensAt", NULL, js_utimens_at, NULL, NULL, NULL, napi_default, NULL},
      {"setxattrAt", NULL, js_setxattr_at, NULL, NULL, NULL, napi_default, NULL},
      {"listXattrs", NULL, js_list_xattrs, NULL, NULL, NULL, napi_default, NULL},
      {"getXattr", NULL, js_get_xattr, NULL, NULL, NULL, napi_default, NULL},
      {"removeAt", NULL, js_remove_at, NULL, NULL, NULL, napi_default, NULL},
  };
  return napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
}
