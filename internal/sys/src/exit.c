/* exitNow: _exit(2), for a berthd whose stop is done and written. Node's process.exit first joins
 * its worker threads and runs its and the libraries' exit handlers (~1.3 ms here), none of which
 * leaves anything behind that the kernel's own cleanup of the process does not. */
#include <unistd.h>
#include "addon.h"

static napi_value exit_now(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  int32_t code = 0;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 ||
      napi_get_value_int32(env, argv[0], &code) != napi_ok) {
    napi_throw_type_error(env, NULL, "exitNow(code): code must be a number");
    return NULL;
  }
  _exit(code & 0xff);
}

napi_status berth_register_exit(napi_env env, napi_value exports) {
  napi_property_descriptor prop = {"exitNow", NULL, exit_now, NULL, NULL, NULL, napi_default, NULL};
  return napi_define_properties(env, exports, 1, &prop);
}
