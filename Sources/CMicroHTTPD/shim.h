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
#include <sys/ioctl.h>
#include <fcntl.h>
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

/* The settings vmsim_start_daemon passes to MHD; 0 / NULL leaves MHD's default. */
struct vmsim_daemon_options {
  const struct sockaddr *bind_addr;     /* the listening address (its port must equal `port`) */
  unsigned int thread_pool_size;
  size_t memory_limit;                  /* MHD_OPTION_CONNECTION_MEMORY_LIMIT */
  unsigned int timeout_seconds;         /* MHD_OPTION_CONNECTION_TIMEOUT (idle) */
  unsigned int connection_limit;        /* MHD_OPTION_CONNECTION_LIMIT */
  unsigned int per_ip_connection_limit; /* MHD_OPTION_PER_IP_CONNECTION_LIMIT */
  unsigned int listen_backlog;          /* MHD_OPTION_LISTEN_BACKLOG_SIZE */
  const char *tls_key_pem;              /* with MHD_USE_TLS: MHD_OPTION_HTTPS_MEM_KEY */
  const char *tls_cert_pem;             /* with MHD_USE_TLS: MHD_OPTION_HTTPS_MEM_CERT */
};

/* MHD_start_daemon with a fixed option set (see struct vmsim_daemon_options). */
static inline struct MHD_Daemon *
vmsim_start_daemon(unsigned int flags, uint16_t port,
                   const struct vmsim_daemon_options *o,
                   MHD_AccessHandlerCallback access_handler, void *access_cls,
                   vmsim_uri_log_callback uri_log, void *uri_log_cls,
                   MHD_RequestCompletedCallback completed, void *completed_cls,
                   MHD_NotifyConnectionCallback notify_connection, void *notify_connection_cls,
                   struct vmsim_mhd_log *log) {
  struct MHD_OptionItem options[16];
  size_t n = 0;
  options[n++] = (struct MHD_OptionItem){ MHD_OPTION_SOCK_ADDR, 0, (void *)o->bind_addr };
  options[n++] = (struct MHD_OptionItem){ MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)uri_log, uri_log_cls };
  options[n++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, completed_cls };
  if (notify_connection != NULL)
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)notify_connection, notify_connection_cls };
  if (log != NULL)
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)&vmsim_mhd_log_callback, log };
  if (o->thread_pool_size > 1)
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)o->thread_pool_size, NULL };
  if (o->memory_limit > 0)
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)o->memory_limit, NULL };
  if (o->timeout_seconds > 0)
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_TIMEOUT, (intptr_t)o->timeout_seconds, NULL };
  if (o->connection_limit > 0)
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_CONNECTION_LIMIT, (intptr_t)o->connection_limit, NULL };
  if (o->per_ip_connection_limit > 0)
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_PER_IP_CONNECTION_LIMIT, (intptr_t)o->per_ip_connection_limit, NULL };
  if (o->listen_backlog > 0)
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_LISTEN_BACKLOG_SIZE, (intptr_t)o->listen_backlog, NULL };
  if (o->tls_key_pem != NULL && o->tls_cert_pem != NULL) {
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_KEY, 0, (void *)o->tls_key_pem };
    options[n++] = (struct MHD_OptionItem){ MHD_OPTION_HTTPS_MEM_CERT, 0, (void *)o->tls_cert_pem };
  }
  options[n] = (struct MHD_OptionItem){ MHD_OPTION_END, 0, NULL };
  return MHD_start_daemon(flags, port, NULL, NULL, access_handler, access_cls,
                          MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/* The per-TCP-connection pointer set in MHD_OPTION_NOTIFY_CONNECTION, or NULL. */
static inline void *vmsim_connection_socket_context(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info =
    MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return info == NULL ? NULL : info->socket_context;
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

/*
 * Whether this libmicrohttpd was built with TLS (HTTPS) support: 1 or 0.
 *
 * A C helper because the Swift spelling differs between header versions: 0.9.x declares
 * `enum MHD_FEATURE` with enum_extensibility(closed), which Swift imports as an enum
 * (`.FEATURE_TLS`); 1.0 (Homebrew, Debian 13) dropped the attribute, so Swift imports a struct
 * with global constants instead (`MHD_FEATURE_TLS`). The other enums the Swift code names
 * (MHD_Result, MHD_ValueKind, MHD_ResponseMemoryMode, MHD_ResponseFlags,
 * MHD_RequestTerminationCode, MHD_ConnectionNotificationCode; MHD_FLAG is open in both) keep
 * their attributes in 0.9.75, 1.0.1 and upstream's master of 2025-04 (Scripts/check-mhd-headers
 * builds against 1.0.x).
 */
static inline int vmsim_mhd_supports_tls(void) {
  return MHD_is_feature_supported(MHD_FEATURE_TLS) == MHD_YES;
}

/* MHD_set_response_options with a single flag set. */
static inline enum MHD_Result
vmsim_set_response_flags(struct MHD_Response *response, enum MHD_ResponseFlags flags) {
  return MHD_set_response_options(response, flags, MHD_RO_END);
}

/* Bytes received by the kernel on `fd` and not yet read (FIONREAD), or -1 on error. */
static inline int vmsim_socket_unread_bytes(int fd) {
  int count = 0;
  return ioctl(fd, FIONREAD, &count) == 0 ? count : -1;
}

/* Makes `fd` non-blocking (fcntl is variadic); 0 on success. */
static inline int vmsim_set_nonblocking(int fd) {
  int flags = fcntl(fd, F_GETFL, 0);
  return flags < 0 ? -1 : fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

#endif
