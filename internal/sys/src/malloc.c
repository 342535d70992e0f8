/* trimMalloc: glibc's malloc_trim(0), which returns the free memory of every malloc arena to the
 * system, the arenas of threads that have ended included (glibc keeps those for later threads). */
#include <malloc.h>
#include "addon.h"

static napi_value trim_malloc(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value result;
  napi_get_boolean(env, malloc_trim(0) == 1, &result);
  return result;
}

napi_status berth_register_malloc(napi_env env, napi_value exports) {
  napi_property_descriptor prop = {"trimMalloc", NULL, trim_malloc, NULL, NULL, NULL, napi_default, NULL};
  return napi_define_properties(env, exports, 1, &prop);
}
