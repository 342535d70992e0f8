/* diskUsage: the disk usage of a directory tree (allocated bytes and inodes, an inode with several
 * links counted once), walked on libuv's thread pool, so the event loop does none of it: the
 * kubelet has every container's writable layer measured every 10 s, and at 110 pods the same walk
 * in JavaScript held berthd's thread ~70 ms each time, in 10-17 ms stretches (issue 16).
 * The walk is fd-relative and never follows a symlink (fstatat AT_SYMLINK_NOFOLLOW, openat
 * O_NOFOLLOW|O_DIRECTORY): a container renaming a directory to a symlink mid-walk leads it nowhere
 * outside the tree. It holds one fd per level down to MAX_DEPTH levels; below that (a container can
 * hide gigabytes under 300 nested directories) it goes on with one directory open at a time, a stack
 * of readdir positions on the heap, climbing back through ".." and checking that it came back to the
 * directory it left (a container moving directories mid-walk ends that part of the walk: the answer
 * says `deeper`, as when memory runs out). An entry that vanishes mid-walk is skipped. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "addon.h"

#define MAX_DEPTH 256
#define MAX_PATH_ARG 4096

/* The (device, inode) pairs of multiply-linked files seen so far: open addressing, grown at half full. */
struct inode_set {
  uint64_t *keys; /* pairs: dev, ino; dev == UINT64_MAX marks a free slot */
  size_t cap;
  size_t used;
};

static bool set_grow(struct inode_set *s) {
  size_t cap = s->cap ? s->cap * 2 : 64;
  uint64_t *keys = malloc(cap * 2 * sizeof *keys);
  if (keys == NULL) return false;
  for (size_t i = 0; i < cap; i++) keys[2 * i] = UINT64_MAX;
  for (size_t i = 0; i < s->cap; i++) {
    if (s->keys[2 * i] == UINT64_MAX) continue;
    size_t j = (s->keys[2 * i] * 31 + s->keys[2 * i + 1]) & (cap - 1);
    while (keys[2 * j] != UINT64_MAX) j = (j + 1) & (cap - 1);
    keys[2 * j] = s->keys[2 * i];
    keys[2 * j + 1] = s->keys[2 * i + 1];
  }
  free(s->keys);
  s->keys = keys;
  s->cap = cap;
  return true;
}

/* 1: added, 0: already there, -1: out of memory. */
static int set_add(struct inode_set *s, uint64_t dev, uint64_t ino) {
  if ((s->used + 1) * 2 > s->cap && !set_grow(s)) return -1;
  size_t j = (dev * 31 + ino) & (s->cap - 1);
  while (s->keys[2 * j] != UINT64_MAX) {
    if (s->keys[2 * j] == dev && s->keys[2 * j + 1] == ino) return 0;
    j = (j + 1) & (s->cap - 1);
  }
  s->keys[2 * j] = dev;
  s->keys[2 * j + 1] = ino;
  s->used++;
  return 1;
}

struct du_job {
  napi_async_work work;
  napi_deferred deferred;
  char path[MAX_PATH_ARG];
  /* results */
  int err;
  const char *call;
  uint64_t bytes;
  uint64_t inodes;
  bool deeper;
  struct inode_set linked;
};

/* Counts one entry; false when the walk must stop (job->err set). */
static bool count(struct du_job *job, const struct stat *st) {
  if (st->st_nlink > 1 && !S_ISDIR(st->st_mode)) {
    int added = set_add(&job->linked, (uint64_t)st->st_dev, (uint64_t)st->st_ino);
    if (added < 0) {
      job->err = ENOMEM;
      job->call = "malloc";
      return false;
    }
    if (added == 0) return true;
  }
  job->bytes += (uint64_t)st->st_blocks * 512;
  job->inodes++;
  return true;
}

static bool fail(struct du_job *job, const char *call) {
  job->err = errno;
  job->call = call;
  return false;
}

/* The listing of the directory open as `fd` (taken: closed on failure, with job->err set). */
static DIR *listing(struct du_job *job, int fd) {
  DIR *dir = fdopendir(fd);
  if (dir == NULL) {
    fail(job, "fdopendir");
    close(fd);
  }
  return dir;
}

enum entry_kind { ENTRY_END, ENTRY_COUNTED, ENTRY_DIR, ENTRY_STOP };

/* Reads and counts the next entry of `dir`: ENTRY_DIR with *child open on it when it is a
 * directory to enter, ENTRY_COUNTED when there is nothing to enter, ENTRY_END at the end of the
 * listing, ENTRY_STOP when the walk must stop (job->err set). */
static enum entry_kind next_entry(struct du_job *job, DIR *dir, int *child) {
  for (;;) {
    errno = 0;
    struct dirent *entry = readdir(dir);
    if (entry == NULL) return errno != 0 ? (fail(job, "readdir"), ENTRY_STOP) : ENTRY_END;
    const char *name = entry->d_name;
    if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))) continue;
    struct stat st;
    if (fstatat(dirfd(dir), name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
      if (errno == ENOENT) continue; /* removed since readdir */
      fail(job, "fstatat");
      return ENTRY_STOP;
    }
    if (!count(job, &st)) return ENTRY_STOP;
    if (!S_ISDIR(st.st_mode)) return ENTRY_COUNTED;
    *child = openat(dirfd(dir), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (*child >= 0) return ENTRY_DIR;
    /* Removed, or replaced by something that is not a directory, since fstatat. */
    if (errno == ENOENT || errno == ENOTDIR || errno == ELOOP) return ENTRY_COUNTED;
    fail(job, "openat");
    return ENTRY_STOP;
  }
}

/* One level of walk_deep's descent: where to go on in the parent, and which directory it is. */
struct level {
  long pos;
  dev_t dev;
  ino_t ino;
};

/* Doubles walk_deep's stack; false (errno ENOMEM) when memory runs out. */
static bool grow(struct level **stack, size_t *cap) {
  size_t grown = *cap ? *cap * 2 : 64;
  struct level *bigger = realloc(*stack, grown * sizeof **stack);
  if (bigger == NULL) {
    errno = ENOMEM;
    return false;
  }
  *stack = bigger;
  *cap = grown;
  return true;
}

/* Walks the tree of the directory open as `fd` (taken) with one directory open at a time; false
 * when the walk must stop (job->err set). A climb that does not come back where it went down from
 * ends the deep walk with job->deeper set. */
static bool walk_deep(struct du_job *job, int fd) {
  struct level *stack = NULL;
  size_t depth = 0, cap = 0;
  DIR *dir = listing(job, fd);
  if (dir == NULL) return false;
  bool ok = true;
  for (;;) {
    int child = -1;
    enum entry_kind kind = next_entry(job, dir, &child);
    if (kind == ENTRY_STOP) {
      ok = false;
      break;
    }
    if (kind == ENTRY_COUNTED) continue;
    if (kind == ENTRY_END) {
      if (depth == 0) break;
      /* Back up to the parent, where this directory's entry was read. */
      struct level *up = &stack[--depth];
      int parent = openat(dirfd(dir), "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      closedir(dir);
      dir = NULL;
      struct stat pst;
      if (parent < 0 || fstat(parent, &pst) != 0 || pst.st_dev != up->dev || pst.st_ino != up->ino || (dir = fdopendir(parent)) == NULL) {
        if (parent >= 0 && dir == NULL) close(parent);
        job->deeper = true; /* moved meanwhile: what is left of this part is not counted */
        break;
      }
      seekdir(dir, up->pos);
      continue;
    }
    struct stat here;
    const char *failed = fstat(dirfd(dir), &here) != 0 ? "fstat" : depth == cap && !grow(&stack, &cap) ? "malloc" : NULL;
    if (failed != NULL) {
      ok = fail(job, failed);
      close(child);
      break;
    }
    stack[depth++] = (struct level){telldir(dir), here.st_dev, here.st_ino};
    closedir(dir);
    dir = listing(job, child);
    if (dir == NULL) {
      ok = false;
      break;
    }
  }
  if (dir != NULL) closedir(dir);
  free(stack);
  return ok;
}

/* Walks the directory open as `fd` (taken: closed here) at `depth`; false when the walk must stop. */
static bool walk(struct du_job *job, int fd, int depth) {
  DIR *dir = listing(job, fd);
  if (dir == NULL) return false;
  bool ok = true;
  for (;;) {
    int child = -1;
    enum entry_kind kind = next_entry(job, dir, &child);
    if (kind == ENTRY_COUNTED) continue;
    if (kind != ENTRY_DIR) {
      ok = kind == ENTRY_END;
      break;
    }
    if (!(depth + 1 >= MAX_DEPTH ? walk_deep(job, child) : walk(job, child, depth + 1))) {
      ok = false;
      break;
    }
  }
  closedir(dir);
  return ok;
}

static void du_execute(napi_env env, void *data) {
  (void)env;
  struct du_job *job = data;
  struct stat st;
  if (fstatat(AT_FDCWD, job->path, &st, AT_SYMLINK_NOFOLLOW) != 0) {
    job->err = errno;
    job->call = "lstat";
    return;
  }
  if (!count(job, &st) || !S_ISDIR(st.st_mode)) return;
  int fd = openat(AT_FDCWD, job->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    job->err = errno;
    job->call = "open";
    return;
  }
  walk(job, fd, 0);
}

static void du_complete(napi_env env, napi_status status, void *data) {
  struct du_job *job = data;
  napi_value result;
  if (status != napi_ok || job->err != 0) {
    int err = status != napi_ok ? ECANCELED : job->err;
    napi_value error = berth_errno_error(env, err, job->call ? job->call : "diskUsage", job->path);
    napi_reject_deferred(env, job->deferred, error);
  } else {
    napi_value size, inodes, deeper;
    napi_create_object(env, &result);
    /* Exact up to 2^53 bytes (8 PiB) and inodes, as a JS number. */
    napi_create_double(env, (double)job->bytes, &size);
    napi_create_double(env, (double)job->inodes, &inodes);
    napi_get_boolean(env, job->deeper, &deeper);
    napi_set_named_property(env, result, "size", size);
    napi_set_named_property(env, result, "inodes", inodes);
    napi_set_named_property(env, result, "deeper", deeper);
    napi_resolve_deferred(env, job->deferred, result);
  }
  napi_delete_async_work(env, job->work);
  free(job->linked.keys);
  free(job);
}

/* diskUsage(path: string): Promise<{ size, inodes, deeper }> */
static napi_value js_disk_usage(napi_env env, napi_callback_info info) {
  struct du_job *job = calloc(1, sizeof *job);
  if (job == NULL) return berth_throw_errno(env, ENOMEM, "diskUsage", NULL);
  if (berth_path_arg(env, info, "diskUsage", job->path, sizeof job->path) != 0) {
    free(job);
    return NULL;
  }
  napi_value promise, name;
  napi_create_string_utf8(env, "berth:diskUsage", NAPI_AUTO_LENGTH, &name);
  if (napi_create_async_work(env, NULL, name, du_execute, du_complete, job, &job->work) != napi_ok) {
    free(job);
    return berth_throw_errno(env, ENOMEM, "diskUsage", NULL);
  }
  /* The promise last: nothing fails after it but the queueing, which settles it. */
  if (napi_create_promise(env, &job->deferred, &promise) != napi_ok) {
    napi_delete_async_work(env, job->work);
    free(job);
    return berth_throw_errno(env, ENOMEM, "diskUsage", NULL);
  }
  if (napi_queue_async_work(env, job->work) != napi_ok) {
    napi_delete_async_work(env, job->work);
    napi_reject_deferred(env, job->deferred, berth_errno_error(env, EAGAIN, "diskUsage", job->path));
    free(job);
  }
  return promise;
}

napi_status berth_register_du(napi_env env, napi_value exports) {
  napi_property_descriptor prop = {"diskUsage", NULL, js_disk_usage, NULL, NULL, NULL, napi_default, NULL};
  return napi_define_properties(env, exports, 1, &prop);
}
