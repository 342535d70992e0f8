/* Removing a directory tree by descriptor, never following a symlink and at any depth: one
 * directory open at a time, so a hostile tree costs neither stack nor descriptors. The walk
 * descends into the first non-empty subdirectory and climbs back through ".." (of a directory it
 * opened itself, with O_NOFOLLOW, so ".." is where it came from) once a directory is empty.
 *
 * It is resumable: removeTree (async) runs it on libuv's thread pool in steps of a bounded number
 * of entries, each step a job of its own, so a tree of a million files neither holds berthd's
 * thread nor one of the pool's four for long (the pool also carries every fs call and the
 * database's fsync, which would otherwise wait behind it). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "addon.h"

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
/* Entries one step of the async removal handles: ~5-20 ms of unlinks on ext4 here. */
#define STEP_ENTRIES 1024
/* What reading a directory again from its start counts for (its emptied blocks are read again). */
#define RELIST_COST 16

void berth_removal_init(struct berth_removal *r, int parentfd, const char *name) {
  memset(r, 0, sizeof *r);
  r->parentfd = parentfd;
  snprintf(r->name, sizeof r->name, "%s", name);
  r->fd = -1;
}

static void close_current(struct berth_removal *r) {
  if (r->dir != NULL) closedir(r->dir);
  else if (r->fd >= 0) close(r->fd);
  r->dir = NULL;
  r->fd = -1;
}

void berth_removal_abort(struct berth_removal *r) {
  int saved = errno;
  close_current(r);
  errno = saved;
}

/* Makes `fd` (a directory just opened) the one being emptied, its listing from the start. */
static int enter(struct berth_removal *r, int fd) {
  close_current(r);
  r->fd = fd;
  r->dir = fdopendir(fd);
  if (r->dir == NULL) {
    int saved = errno;
    close(fd);
    r->fd = -1;
    errno = saved;
    return -1;
  }
  return 0;
}

int berth_removal_step(struct berth_removal *r, long budget) {
  if (r->fd < 0) {
    int fd = openat(r->parentfd, r->name, DIR_FLAGS);
    if (fd < 0 || enter(r, fd) != 0) return -1;
    r->depth = 0;
  }
  for (;;) {
    char child[NAME_MAX + 1] = "";
    struct dirent *entry;
    for (errno = 0; (entry = readdir(r->dir)) != NULL; errno = 0) {
      const char *n = entry->d_name;
      if (strcmp(n, ".") == 0 || strcmp(n, "..") == 0) continue;
      if (unlinkat(r->fd, n, 0) == 0 || (errno == EISDIR && unlinkat(r->fd, n, AT_REMOVEDIR) == 0)) {
        if (--budget <= 0) return 0; /* the listing goes on from here at the next step */
        continue;
      }
      if (errno != ENOTEMPTY && errno != EEXIST) return -1;
      snprintf(child, sizeof child, "%s", n);
      break;
    }
    if (entry == NULL && errno != 0) return -1;
    int next;
    if (child[0] != 0) {
      next = openat(r->fd, child, DIR_FLAGS);
      r->depth++;
    } else if (r->depth == 0) {
      close_current(r);
      return unlinkat(r->parentfd, r->name, AT_REMOVEDIR) == 0 ? 1 : -1;
    } else {
      /* Listed again from its start: what came before the child was removed. */
      next = openat(r->fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      r->depth--;
    }
    if (next < 0 || enter(r, next) != 0) return -1;
    budget -= RELIST_COST;
    if (budget <= 0) return 0;
  }
}

int berth_remove_tree(int parentfd, const char *name) {
  struct berth_removal r;
  berth_removal_init(&r, parentfd, name);
  int done = berth_removal_step(&r, LONG_MAX);
  if (done < 0) berth_removal_abort(&r);
  return done < 0 ? -1 : 0;
}

/* --- removeTree(path): Promise<void>, on the thread pool ------------------------------------- */

struct remove_job {
  napi_async_work work;
  napi_deferred deferred;
  char path[PATH_MAX];
  int parentfd;
  /* 0 before the first step, 1 while the tree is being emptied, 2 when gone (or never there). */
  int stage;
  struct berth_removal removal;
  int err;
  const char *call;
};

static void fail(struct remove_job *job, const char *call) {
  job->err = errno;
  job->call = call;
}

/* The first step: what is at the path, and what a file or empty directory needs (one call). */
static void first_step(struct remove_job *job) {
  char dir[PATH_MAX], base[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", job->path);
  snprintf(base, sizeof base, "%s", job->path);
  const char *name = basename(base);
  if (strlen(name) > NAME_MAX || strcmp(name, "/") == 0 || strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
    errno = EINVAL;
    fail(job, "removeTree");
    return;
  }
  job->parentfd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (job->parentfd < 0) {
    if (errno == ENOENT) job->stage = 2;
    else fail(job, "open");
    return;
  }
  struct stat st;
  if (fstatat(job->parentfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT) job->stage = 2;
    else fail(job, "fstatat");
    return;
  }
  if (!S_ISDIR(st.st_mode)) {
    if (unlinkat(job->parentfd, name, 0) != 0 && errno != ENOENT) fail(job, "unlinkat");
    else job->stage = 2;
    return;
  }
  if (unlinkat(job->parentfd, name, AT_REMOVEDIR) == 0) {
    job->stage = 2;
    return;
  }
  if (errno != ENOTEMPTY && errno != EEXIST) {
    fail(job, "unlinkat");
    return;
  }
  berth_removal_init(&job->removal, job->parentfd, name);
  job->stage = 1;
}

static void remove_execute(napi_env env, void *data) {
  (void)env;
  struct remove_job *job = data;
  if (job->stage == 0) {
    first_step(job);
    return;
  }
  int done = berth_removal_step(&job->removal, STEP_ENTRIES);
  if (done < 0) {
    fail(job, "unlinkat");
    berth_removal_abort(&job->removal);
  } else if (done == 1) {
    job->stage = 2;
  }
}

static void finish(napi_env env, struct remove_job *job, napi_value error) {
  if (error != NULL) napi_reject_deferred(env, job->deferred, error);
  else {
    napi_value undefined;
    napi_get_undefined(env, &undefined);
    napi_resolve_deferred(env, job->deferred, undefined);
  }
  if (job->parentfd >= 0) close(job->parentfd);
  free(job);
}

static int queue_step(napi_env env, struct remove_job *job);

static void remove_complete(napi_env env, napi_status status, void *data) {
  struct remove_job *job = data;
  napi_delete_async_work(env, job->work);
  job->work = NULL;
  if (status != napi_ok || job->err != 0) {
    if (job->stage == 1) berth_removal_abort(&job->removal);
    int err = status != napi_ok ? ECANCELED : job->err;
    finish(env, job, berth_errno_error(env, err, job->call ? job->call : "removeTree", job->path));
    return;
  }
  if (job->stage == 2) {
    finish(env, job, NULL);
    return;
  }
  /* More to remove: the next step goes to the back of the pool's queue, behind what waits there. */
  if (queue_step(env, job) != 0) {
    berth_removal_abort(&job->removal);
    finish(env, job, berth_errno_error(env, EAGAIN, "removeTree", job->path));
  }
}

static int queue_step(napi_env env, struct remove_job *job) {
  napi_value name;
  napi_create_string_utf8(env, "berth:removeTree", NAPI_AUTO_LENGTH, &name);
  if (napi_create_async_work(env, NULL, name, remove_execute, remove_complete, job, &job->work) != napi_ok) return -1;
  if (napi_queue_async_work(env, job->work) != napi_ok) {
    napi_delete_async_work(env, job->work);
    return -1;
  }
  return 0;
}

/* removeTree(path: string): Promise<void> */
static napi_value js_remove_tree(napi_env env, napi_callback_info info) {
  struct remove_job *job = calloc(1, sizeof *job);
  if (job == NULL) return berth_throw_errno(env, ENOMEM, "removeTree", NULL);
  job->parentfd = -1;
  if (berth_path_arg(env, info, "removeTree", job->path, sizeof job->path) != 0) {
    free(job);
    return NULL;
  }
  napi_value promise;
  if (napi_create_promise(env, &job->deferred, &promise) != napi_ok) {
    free(job);
    return berth_throw_errno(env, ENOMEM, "removeTree", NULL);
  }
  if (queue_step(env, job) != 0) finish(env, job, berth_errno_error(env, EAGAIN, "removeTree", job->path));
  return promise;
}

napi_status berth_register_remove(napi_env env, napi_value exports) {
  napi_property_descriptor prop = {"removeTree", NULL, js_remove_tree, NULL, NULL, NULL, napi_default, NULL};
  return napi_define_properties(env, exports, 1, &prop);
}
