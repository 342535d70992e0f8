/* sd_notify(3)'s wire side, which Node lacks (it has no unix datagram sockets): one datagram with
 * the message, sent to the socket systemd named in NOTIFY_SOCKET. A path starting with '@' is an
 * abstract address, as systemd writes it. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include "addon.h"

#define MAX_MESSAGE 4096

static int get_string(napi_env env, napi_value value, char *buf, size_t size, size_t *len) {
  return napi_get_value_string_utf8(env, value, buf, size, len) == napi_ok;
}

/* sdNotify(path, message): sends `message` as one datagram to `path`; throws with errno's code. */
static napi_value js_sd_notify(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc != 2) {
    napi_throw_type_error(env, NULL, "sdNotify(path, message)");
    return NULL;
  }
  struct sockaddr_un addr;
  memset(&addr, 0, sizeof addr);
  addr.sun_family = AF_UNIX;
  char path[sizeof addr.sun_path + 1];
  size_t path_len = 0;
  if (!get_string(env, argv[0], path, sizeof path, &path_len)) {
    napi_throw_type_error(env, NULL, "sdNotify: path must be a string");
    return NULL;
  }
  /* A path that filled the buffer was cut short: refuse it rather than send to a prefix. */
  if (path_len == 0 || path_len >= sizeof addr.sun_path || (path[0] != '/' && path[0] != '@'))
    return berth_throw_errno(env, EINVAL, "sdNotify", path);
  memcpy(addr.sun_path, path, path_len);
  if (path[0] == '@') addr.sun_path[0] = '\0';
  socklen_t addr_len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + path_len + (path[0] == '@' ? 0 : 1));

  char *message = malloc(MAX_MESSAGE + 1);
  if (message == NULL) return berth_throw_errno(env, ENOMEM, "sdNotify", path);
  size_t message_len = 0;
  if (!get_string(env, argv[1], message, MAX_MESSAGE + 1, &message_len)) {
    free(message);
    napi_throw_type_error(env, NULL, "sdNotify: message must be a string");
    return NULL;
  }
  if (message_len >= MAX_MESSAGE) {
    free(message);
    return berth_throw_errno(env, EMSGSIZE, "sdNotify", path);
  }

  int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    int err = errno;
    free(message);
    return berth_throw_errno(env, err, "socket", path);
  }
  ssize_t sent = sendto(fd, message, message_len, MSG_NOSIGNAL, (struct sockaddr *)&addr, addr_len);
  int err = errno;
  close(fd);
  free(message);
  if (sent < 0) return berth_throw_errno(env, err, "sendto", path);
  return NULL;
}

napi_status berth_register_notify(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
      {"sdNotify", NULL, js_sd_notify, NULL, NULL, NULL, napi_default, NULL},
  };
  return napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
}
