/* Files mapped instead of read, for berthd's start-up (issue 16): the bundle's source and its V8 code
 * cache, 2.7 MB read into fresh memory at every start, cost ~1,000 page faults (10-16 us each on the
 * VMs measured). A private read-only mapping shares the page cache, is faulted in 64 KB at a time and
 * never copied. A mapped file must not change in place: bundle.ts replaces its files by rename. */
#define NAPI_EXPERIMENTAL /* node_api_create_external_string_latin1: Node 20.4+ */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "addon.h"

struct mapping {
  void *addr;
  size_t len;
};

static void unmap(node_api_basic_env env, void *data, void *hint) {
  (void)env;
  (void)data;
  struct mapping *m = hint;
  munmap(m->addr, m->len);
  free(m);
}

/* Maps the whole regular, non-empty file at `path` read-only; 0 or an errno. */
static int map_file(const char *path, struct mapping **out) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  struct stat st;
  int err = fstat(fd, &st) != 0 ? errno : (!S_ISREG(st.st_mode) || st.st_size == 0 ? EINVAL : 0);
  void *addr = MAP_FAILED;
  if (err == 0) {
    addr = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (addr == MAP_FAILED) err = errno;
  }
  close(fd);
  if (err != 0) return err;
  struct mapping *m = malloc(sizeof *m);
  if (m == NULL) {
    munmap(addr, (size_t)st.st_size);
    return ENOMEM;
  }
  m->addr = addr;
  m->len = (size_t)st.st_size;
  *out = m;
  return 0;
}

/* The one path argument of mapLatin1/mapBuffer, mapped; NULL after throwing. */
static struct mapping *mapped_arg(napi_env env, napi_callback_info info, const char *call) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  char path[4096];
  size_t len = 0;
  if (argc != 1 || napi_get_value_string_utf8(env, argv[0], path, sizeof path, &len) != napi_ok) {
    napi_throw_type_error(env, NULL, "a file path is required");
    return NULL;
  }
  if (len == 0 || len >= sizeof path - 1) {
    berth_throw_errno(env, ENAMETOOLONG, call, NULL);
    return NULL;
  }
  struct mapping *m = NULL;
  int err = map_file(path, &m);
  if (err != 0) {
    berth_throw_errno(env, err, call, path);
    return NULL;
  }
  return m;
}

/* mapLatin1(path): the file as a one-byte string whose characters are the mapped bytes. */
static napi_value js_map_latin1(napi_env env, napi_callback_info info) {
  struct mapping *m = mapped_arg(env, info, "mapLatin1");
  if (m == NULL) return NULL;
  napi_value result;
  bool copied = false;
  /* When V8 copies instead (short strings), the finalizer has already run: nothing to undo. */
  if (node_api_create_external_string_latin1(env, m->addr, m->len, unmap, m, &result, &copied) != napi_ok) {
    unmap(env, m->addr, m);
    return berth_throw_errno(env, ENOMEM, "mapLatin1", NULL);
  }
  return result;
}

/* mapBuffer(path): the file as a read-only Buffer over the mapping (writing to it faults). */
static napi_value js_map_buffer(napi_env env, napi_callback_info info) {
  struct mapping *m = mapped_arg(env, info, "mapBuffer");
  if (m == NULL) return NULL;
  napi_value result;
  if (napi_create_external_buffer(env, m->len, m->addr, unmap, m, &result) != napi_ok) {
    unmap(env, m->addr, m);
    return berth_throw_errno(env, ENOMEM, "mapBuffer", NULL);
  }
  return result;
}

napi_status berth_register_map(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"mapLatin1", NULL, js_map_latin1, NULL, NULL, NULL, napi_default, NULL},
      {"mapBuffer", NULL, js_map_buffer, NULL, NULL, NULL, napi_default, NULL},
  };
  return napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
}
