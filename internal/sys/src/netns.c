/* Network namespaces: create a persistent one (bind-mounted on a file), remove it, and open a
 * TCP connection from inside one.
 *
 * Every namespace switch happens on a short-lived pthread of our own, never on Node's main
 * thread nor on a libuv pool thread: a thread that called unshare/setns stays in that namespace
 * until it exits, so it must be a thread nobody else will ever reuse. That thread also does the
 * slow part (a connect can take its whole timeout) and is detached: the outcome reaches the main
 * thread through a threadsafe function, so no libuv pool thread ever waits on it (the pool has
 * four threads shared with fs, dns and zlib; a few port-forwards to a port that drops SYNs
 * would otherwise stall all of them). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include "addon.h"

typedef enum { JOB_CREATE, JOB_CONNECT } job_kind;

/* One async call: its inputs, its outcome, and the promise to settle on the main thread. */
typedef struct {
  job_kind kind;
  char path[PATH_MAX];
  int port;
  int timeout_ms;
  int fd;          /* JOB_CONNECT: the connected socket */
  int err;         /* 0 when the job succeeded */
  int err6;        /* JOB_CONNECT: the IPv6 attempt's error, 0 when it was not made */
  const char *call; /* the system call that failed */
  napi_deferred deferred;
  napi_threadsafe_function tsfn;
} ns_job;

static void job_fail(ns_job *job, int err, const char *call) {
  if (job->err != 0) return; /* keep the first failure: it is the cause */
  job->err = err;
  job->call = call;
}

/* --- createNetns -------------------------------------------------------------------------- */

/* On the job's thread: a fresh network namespace for this thread only, then pinned by a bind
 * mount of the thread's ns file onto job->path so it outlives the thread.
 * Propagation: like containerd's pkg/netns (and unlike `ip netns add`, which makes its dir a
 * shared mount) we leave the parent's propagation alone: runc, the shim and the CNI plugins all
 * open the path from the host mount namespace, and runc's containers detach the host's mounts
 * when they pivot_root, so no copy of this mount outlives removeNetns. */
static void unshare_and_pin(ns_job *job) {
  if (unshare(CLONE_NEWNET) != 0) {
    job_fail(job, errno, "unshare");
    return;
  }
  if (mount("/proc/thread-self/ns/net", job->path, "none", MS_BIND, NULL) != 0)
    job_fail(job, errno, "mount");
  /* the thread ends soon after, taking its namespace membership with it */
}

/* Runs on the job's own thread: make the mount point, then a fresh namespace pinned on it. */
static void create_execute(ns_job *job) {
  /* The mount point: an empty file, exclusive so two sandboxes never share one path. */
  int fd = open(job->path, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0444);
  if (fd < 0) {
    job_fail(job, errno, "open");
    return;
  }
  close(fd);
  unshare_and_pin(job);
  if (job->err != 0) unlink(job->path); /* nothing was mounted: drop the file we made */
}

/* --- connectInNetns ----------------------------------------------------------------------- */

/* A blocking TCP connect to the loopback address of `family`, bounded by timeout_ms. Returns the
 * socket or -1 with *err set. */
static int connect_loopback(int family, int port, int timeout_ms, int *err) {
  int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    *err = errno;
    return -1;
  }
  /* Linux bounds a blocking connect() by SO_SNDTIMEO. */
  struct timeval tv = {.tv_sec = timeout_ms / 1000, .tv_usec = (timeout_ms % 1000) * 1000};
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  int rc;
  if (family == AF_INET) {
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    rc = connect(fd, (struct sockaddr *)&addr, sizeof addr);
  } else {
    struct sockaddr_in6 addr = {.sin6_family = AF_INET6, .sin6_port = htons((uint16_t)port)};
    addr.sin6_addr = in6addr_loopback;
    rc = connect(fd, (struct sockaddr *)&addr, sizeof addr);
  }
  if (rc != 0) {
    /* A connect cut short by SO_SNDTIMEO reports EINPROGRESS: it timed out. */
    *err = errno == EINPROGRESS || errno == EAGAIN ? ETIMEDOUT : errno;
    close(fd);
    return -1;
  }
  struct timeval none = {0, 0};
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &none, sizeof none);
  return fd;
}

/* On the job's thread: join the namespace, then connect. The socket keeps the namespace it
 * was made in, so it stays usable from any thread once handed back. */
static void connect_execute(ns_job *job) {
  int nsfd = open(job->path, O_RDONLY | O_CLOEXEC);
  if (nsfd < 0) {
    job_fail(job, errno, "open");
    return;
  }
  int rc = setns(nsfd, CLONE_NEWNET);
  int setns_err = errno;
  close(nsfd);
  if (rc != 0) {
    job_fail(job, setns_err, "setns");
    return;
  }
  int err4 = 0, err6 = 0;
  job->fd = connect_loopback(AF_INET, job->port, job->timeout_ms, &err4);
  /* Like containerd's port-forward: IPv4 localhost first, then IPv6 for v6-only listeners. */
  if (job->fd < 0 && err4 != ETIMEDOUT)
    job->fd = connect_loopback(AF_INET6, job->port, job->timeout_ms, &err6);
  if (job->fd < 0) {
    job->err6 = err6;
    job_fail(job, err4, "connect"); /* the IPv4 error names the usual case */
  }
}

/* --- async plumbing ----------------------------------------------------------------------- */

/* On the main thread: settle the promise (a connected fd for JOB_CONNECT) and free the job. */
static void job_settle(napi_env env, napi_value js_cb, void *context, void *data) {
  (void)js_cb;
  (void)context;
  ns_job *job = data;
  if (env == NULL) { /* environment torn down: nobody to settle */
    if (job->fd >= 0) close(job->fd);
    free(job);
    return;
  }
  if (job->err == 0) {
    napi_value value;
    if (job->kind == JOB_CONNECT) napi_create_int32(env, job->fd, &value);
    else napi_get_undefined(env, &value);
    napi_resolve_deferred(env, job->deferred, value);
  } else {
    if (job->fd >= 0) close(job->fd);
    /* Build the errno-carrying Error the same way the sync calls throw it, then reject with it. */
    /* A failed connect names no path (the namespace file is not what refused) and carries both
     * attempts' reasons, as containerd's port-forward error gives them. */
    int connecting = job->kind == JOB_CONNECT && job->call != NULL && strcmp(job->call, "connect") == 0;
    napi_value error = berth_errno_error(env, job->err, job->call ? job->call : "async", connecting ? NULL : job->path);
    if (connecting) {
      napi_value reason;
      napi_create_string_utf8(env, strerror(job->err), NAPI_AUTO_LENGTH, &reason);
      napi_set_named_property(env, error, "ipv4Reason", reason);
      if (job->err6 != 0) {
        napi_create_string_utf8(env, strerror(job->err6), NAPI_AUTO_LENGTH, &reason);
        napi_set_named_property(env, error, "ipv6Reason", reason);
      }
    }
    napi_reject_deferred(env, job->deferred, error);
  }
  free(job);
}

/* The job's own detached thread; it ends (leaving any namespace it joined) once it has reported. */
static void *job_thread(void *arg) {
  ns_job *job = arg;
  if (job->kind == JOB_CREATE) create_execute(job);
  else connect_execute(job);
  /* job_settle frees the job, possibly before the call below returns: keep the tsfn apart. */
  napi_threadsafe_function tsfn = job->tsfn;
  if (napi_call_threadsafe_function(tsfn, job, napi_tsfn_blocking) != napi_ok) { /* env torn down */
    if (job->fd >= 0) close(job->fd);
    free(job);
  }
  napi_release_threadsafe_function(tsfn, napi_tsfn_release);
  return NULL;
}

/* Reads a path argument into buf; throws and returns 0 when it is not a usable path. */
static int read_path(napi_env env, napi_value value, char *buf, size_t size) {
  size_t len = 0;
  if (napi_get_value_string_utf8(env, value, buf, size, &len) != napi_ok) {
    napi_throw_type_error(env, NULL, "path must be a string");
    return 0;
  }
  if (len == 0 || len >= size - 1) {
    berth_throw_errno(env, len == 0 ? EINVAL : ENAMETOOLONG, "path", buf);
    return 0;
  }
  return 1;
}

/* Starts the job on its own thread; returns the promise job_settle will settle. */
static napi_value queue_job(napi_env env, ns_job *job, const char *name) {
  napi_value promise, resource_name;
  job->fd = -1;
  napi_create_promise(env, &job->deferred, &promise);
  napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &resource_name);
  int rc = ENOMEM;
  if (napi_create_threadsafe_function(env, NULL, NULL, resource_name, 0, 1, NULL, NULL, NULL, job_settle, &job->tsfn) == napi_ok) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    pthread_t thread;
    rc = pthread_create(&thread, &attr, job_thread, job);
    pthread_attr_destroy(&attr);
    if (rc == 0) return promise;
    napi_release_threadsafe_function(job->tsfn, napi_tsfn_abort);
  }
  napi_value error;
  berth_throw_errno(env, rc, "pthread_create", job->path);
  napi_get_and_clear_last_exception(env, &error);
  napi_reject_deferred(env, job->deferred, error);
  free(job);
  return promise;
}

/* A zeroed job for the JS call `call`, whose first of `want` arguments (read into argv) is the
 * namespace path. NULL when it cannot be made: with a pending exception, except for too few
 * arguments when `usage` is NULL. */
static ns_job *job_for_path(napi_env env, napi_callback_info info, size_t want, napi_value *argv, const char *call,
                            const char *usage) {
  size_t argc = want;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  ns_job *job = calloc(1, sizeof *job);
  if (job == NULL) {
    berth_throw_errno(env, ENOMEM, call, NULL);
    return NULL;
  }
  if (argc < want || !read_path(env, argv[0], job->path, sizeof job->path)) {
    free(job);
    if (argc < want && usage != NULL) napi_throw_type_error(env, NULL, usage);
    return NULL;
  }
  return job;
}

/* createNetns(path): Promise<void> */
static napi_value create_netns(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  ns_job *job = job_for_path(env, info, 1, argv, "createNetns", NULL);
  if (job == NULL) return NULL;
  job->kind = JOB_CREATE;
  return queue_job(env, job, "berth.createNetns");
}

/* connectInNetns(path, port, timeoutMs): Promise<number> (a connected TCP socket fd) */
static napi_value connect_in_netns(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  ns_job *job = job_for_path(env, info, 3, argv, "connectInNetns", "connectInNetns(path, port, timeoutMs)");
  if (job == NULL) return NULL;
  if (napi_get_value_int32(env, argv[1], &job->port) != napi_ok || job->port < 1 || job->port > 65535 ||
      napi_get_value_int32(env, argv[2], &job->timeout_ms) != napi_ok || job->timeout_ms < 1) {
    free(job);
    napi_throw_range_error(env, NULL, "port must be 1-65535 and timeoutMs positive");
    return NULL;
  }
  job->kind = JOB_CONNECT;
  return queue_job(env, job, "berth.connectInNetns");
}

/* removeNetns(path): unmount (lazily, so a busy holder does not block) and delete the file.
 * Idempotent: a path that is not mounted or not there is fine. */
static napi_value remove_netns(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  char path[PATH_MAX];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < 1 || !read_path(env, argv[0], path, sizeof path)) return NULL;
  /* Unmount every layer: a path mounted twice must not survive as a live namespace. */
  for (int i = 0; i < 16; i++) {
    if (umount2(path, MNT_DETACH | UMOUNT_NOFOLLOW) == 0) continue;
    if (errno == EINVAL || errno == ENOENT) break;
    return berth_throw_errno(env, errno, "umount2", path);
  }
  if (unlink(path) != 0 && errno != ENOENT) return berth_throw_errno(env, errno, "unlink", path);
  return NULL;
}

napi_status berth_register_netns(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"createNetns", NULL, create_netns, NULL, NULL, NULL, napi_enumerable, NULL},
      {"removeNetns", NULL, remove_netns, NULL, NULL, NULL, napi_enumerable, NULL},
      {"connectInNetns", NULL, connect_in_netns, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  return napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
}
