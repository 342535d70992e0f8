/* lockExclusive: flock(fd, LOCK_EX | LOCK_NB), the root lock's system call. The lock belongs to the
 * open file and ends with it, at close or at the process's exit however it ends, so nothing stale
 * is ever left to judge. */
#include <errno.h>
#include <sys/file.h>
#include "addon.h"

static napi_value lock_exclusive(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  int32_t fd = -1;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 ||
      napi_get_value_int32(env, argv[0], &fd) != napi_ok) {
    napi_throw_type_error(env, NULL, "lockExclusive(fd): fd must be a number");
    return NULL;
  }
  int rc;
  do {
    rc = flock(fd, LOCK_EX | LOCK_NB);
  } while (rc != 0 && errno == EINTR);
  if (rc != 0 && errno != EWOULDBLOCK) return berth_throw_errno(env, errno, "flock", NULL);
  napi_value taken;
  napi_get_boolean(env, rc == 0, &taken);
  return taken;
}

napi_status berth_register_lock(napi_env env, napi_value exports) {
  napi_property_descriptor prop = {"lockExclusive", NULL, lock_exclusive, NULL, NULL, NULL, napi_default, NULL};
  return napi_define_properties(env, exports, 1, &prop);
}
