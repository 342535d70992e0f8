#include "addon.h"

napi_status berth_register_fs(napi_env env, napi_value exports) {
  (void)env;
  (void)exports;
  return napi_ok;
}
