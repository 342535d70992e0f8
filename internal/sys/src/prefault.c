// The end of berthd's start-up, told to berth_preload.so (internal/sys/preload) when bin/berthd
// preloaded it: looked up by name, so a berthd started without it (the tests run dist/) is unaffected.
#include <dlfcn.h>
#include "addon.h"

static napi_value prefault_end(napi_env env, napi_callback_info info) {
  (void)info;
  void (*end)(void) = (void (*)(void))dlsym(RTLD_DEFAULT, "berth_prefault_end");
  if (end != NULL) end();
  napi_value result;
  napi_get_boolean(env, end != NULL, &result);
  return result;
}

napi_status berth_register_prefault(napi_env env, napi_value exports) {
  napi_value fn;
  napi_status s = napi_create_function(env, "prefaultEnd", NAPI_AUTO_LENGTH, prefault_end, NULL, &fn);
  if (s != napi_ok) return s;
  return napi_set_named_property(env, exports, "prefaultEnd", fn);
}
