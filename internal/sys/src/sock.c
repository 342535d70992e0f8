/* socketpair(2), which Node lacks: a connected pair of unix stream sockets, both ends
 * close-on-exec and non-blocking, for handing one end to Node's own stream machinery. */
#include <errno.h>
#include <sys/socket.h>
#include "addon.h"

/* socketpair() -> [fd0, fd1] */
static napi_value js_socketpair(napi_env env, napi_callback_info info) {
  (void)info;
  int fds[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, fds) != 0)
    return berth_throw_errno(env, errno, "socketpair", NULL);
  napi_value result, a, b;
  napi_create_array_with_length(env, 2, &result);
  napi_create_int32(env, fds[0], &a);
  napi_create_int32(env, fds[1], &b);
  napi_set_element(env, result, 0, a);
  napi_set_element(env, result, 1, b);
  return result;
}

napi_status berth_register_sock(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"socketpair", NULL, js_socketpair, NULL, NULL, NULL, napi_default, NULL},
  };
  return napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
}
