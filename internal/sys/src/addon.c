#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "addon.h"

napi_value berth_errno_error(napi_env env, int err, const char *call, const char *path) {
  char msg[4096 + 256];
  snprintf(msg, sizeof msg, "%s %s: %s", call, path ? path : "", strerror(err));
  napi_value message, error, code, errnoValue, syscall;
  napi_create_string_utf8(env, msg, NAPI_AUTO_LENGTH, &message);
  napi_create_error(env, NULL, message, &error);
  const char *name = strerrorname_np(err);
  napi_create_string_utf8(env, name ? name : "EUNKNOWN", NAPI_AUTO_LENGTH, &code);
  napi_create_int32(env, -err, &errnoValue);
  napi_create_string_utf8(env, call, NAPI_AUTO_LENGTH, &syscall);
  napi_set_named_property(env, error, "code", code);
  napi_set_named_property(env, error, "errno", errnoValue);
  napi_set_named_property(env, error, "syscall", syscall);
  return error;
}

napi_value berth_throw_errno(napi_env env, int err, const char *call, const char *path) {
  napi_throw(env, berth_errno_error(env, err, call, path));
  return NULL;
}

int berth_path_arg(napi_env env, napi_callback_info info, const char *fn, char *buf, size_t size) {
  size_t argc = 1;
  napi_value argv[1];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) return -1;
  napi_valuetype type = napi_undefined;
  if (argc >= 1) napi_typeof(env, argv[0], &type);
  char msg[128];
  if (type != napi_string) {
    snprintf(msg, sizeof msg, "%s: path must be a string", fn);
    napi_throw_type_error(env, NULL, msg);
    return -1;
  }
  size_t len = 0;
  napi_get_value_string_utf8(env, argv[0], buf, size, &len);
  if (len == 0 || len >= size - 1 || strlen(buf) != len) {
    snprintf(msg, sizeof msg, "%s: path must be a non-empty path without NUL, under %zu KiB", fn, size / 1024);
    napi_throw_type_error(env, NULL, msg);
    return -1;
  }
  return 0;
}

static napi_value init(napi_env env, napi_value exports) {
  if (berth_register_fs(env, exports) != napi_ok) return NULL;
  if (berth_register_netns(env, exports) != napi_ok) return NULL;
  if (berth_register_spawn(env, exports) != napi_ok) return NULL;
  if (berth_register_sock(env, exports) != napi_ok) return NULL;
  if (berth_register_fsat(env, exports) != napi_ok) return NULL;
  if (berth_register_notify(env, exports) != napi_ok) return NULL;
  if (berth_register_map(env, exports) != napi_ok) return NULL;
  if (berth_register_prefault(env, exports) != napi_ok) return NULL;
  if (berth_register_malloc(env, exports) != napi_ok) return NULL;
  if (berth_register_du(env, exports) != napi_ok) return NULL;
  if (berth_register_remove(env, exports) != napi_ok) return NULL;
  if (berth_register_lock(env, exports) != napi_ok) return NULL;
  if (berth_register_exit(env, exports) != napi_ok) return NULL;
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
