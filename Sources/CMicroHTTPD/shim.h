#ifndef VMSIM_CMICROHTTPD_SHIM_H
#define VMSIM_CMICROHTTPD_SHIM_H

/*
 * Non-variadic wrappers around the few C-variadic libmicrohttpd calls that the
 * HTTPServer target needs (Swift cannot call C-variadic functions), plus a
 * small log sink used to put MHD's own error text into HTTPServerError.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <pthread.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

/* Signature of MHD_OPTION_URI_LOG_CALLBACK (no typedef in microhttpd.h). */
typedef void *(*vmsim_uri_log_callback)(void *cls, const char *uri,
                                        struct MHD_Connection *connection);

/* Keeps the most recent message MHD logged (MHD_USE_ERROR_LOG). */
struct vmsim_mhd_log {
  pthread_mutex_t lock;
  char text[512];
};

static inline void vmsim_mhd_log_init(struct vmsim_mhd_log *log) {
  pthread_mutex_init(&log->lock, NULL);
  log->text[0] = '\0';
}

static inline void vmsim_mhd_log_destroy(struct vmsim_mhd_log *log) {
  pthread_mutex_destroy(&log->lock);
}

/* Copies the last message (without trailing newline) into out. */
static inline void vmsim_mhd_log_copy(struct vmsim_mhd_log *log, char *out, size_t size) {
  if (size == 0) return;
  pthread_mutex_lock(&log->lock);
  snprintf(out, size, "%s", log->text);
  pthread_mutex_unlock(&log->lock);
  size_t n = strlen(out);
  while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == '\r' || out[n - 1] == ' ')) out[--n] = '\0';
}

static inline void vmsim_mhd_log_callback(void *cls, const char *fmt, va_list ap) {
  struct vmsim_mhd_log *log = (struct vmsim_mhd_log *)cls;
  pthread_mutex_lock(&log->lock);
  vsnprintf(log->text, sizeof log->text, fmt, ap);
  pthread_mutex_unlock(&log->lock);
}

/*
 * MHD_start_daemon with a fixed option set.
 * bind_addr: the listening address (its port is used; `port` must match it).
 * memory_limit / timeout_seconds / thread_pool_size: 0 leaves MHD's default.
 */
static inline struct MHD_Daemon *
vmsim_start_daemon(unsigned int flags, uint16_t port,
                   const struct sockaddr *bind_addr,
                   unsigned int thread_pool_size,
                   size_t memory_limit,
                   unsigned int timeout_seconds,
                   MHD_AccessHandlerCallback access_handler, void *access_cls,
                   vmsim_uri_log_callback uri_log, void *uri_log_cls,
                   MHD_RequestCompletedCallback completed, void *completed_cls,
                   struct vmsim_mhd_log *log) {
  struct MHD_OptionItem options[8];
  size_t n = 0;
  options[n++] = (struct MHD_OptionItem){ MHD_OPTION_SOCK_ADDR, 0, (void *)bind_addr };
  options[n++] = (struct MHD_OptionItem){ MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)uri_log, uri_log_cls };
  options[n++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, completed_cls };
  if (log != NULL)
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)&vmsim_mhd_log_callback, log };
  if (thread_pool_size > 1)
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)thread_pool_size, NULL };
  if (memory_limit > 0)
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)memory_limit, NULL };
  if (timeout_seconds > 0)
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)timeout_seconds, NULL };
  options[n] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
  return MHD_start_daemon(flags, port, NULL, NULL, access_handler, access_cls,
                          MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/* The port the daemon is bound to, or 0 if MHD cannot tell. */
static inline uint16_t vmsim_daemon_bound_port(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info =
    MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info == NULL ? 0 : info->port;
}

/* The socket of a connection, or -1 if MHD cannot tell. */
static inline int vmsim_connection_fd(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info =
    MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  return info == NULL ? -1 : (int)info->connect_fd;
}

/* MHD_set_response_options with a single flag set. */
static inline enum MHD_Result
vmsim_set_response_flags(struct MHD_Response *response, enum MHD_ResponseFlags flags) {
  return MHD_set_response_options(response, flags, MHD_RO_END);
}

#endif
