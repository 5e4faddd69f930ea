#ifndef VMSIM_CGNUTLS_TUNNEL_H
#define VMSIM_CGNUTLS_TUNNEL_H

/*
 * The proxy's TLS termination (`serve --proxy`): a GnuTLS server session over a client socket
 * that already received `200 Connection established`, and a tunnel loop that copies bytes
 * between two sockets (one of them optionally behind a TLS session) with bounded buffers and an
 * idle timeout. Sockets are blocking; every wait is a poll with a deadline, and SO_RCVTIMEO /
 * SO_SNDTIMEO bound each single read and write.
 */

#include <errno.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include <gnutls/gnutls.h>

#ifndef MSG_NOSIGNAL  /* macOS: none; the process ignores SIGPIPE (ProxyServer.start) */
#define MSG_NOSIGNAL 0
#endif

/* Server credentials from a PEM certificate chain and key; NULL on failure (message in err). */
static inline gnutls_certificate_credentials_t
vmsim_tls_server_credentials(const char *cert_pem, const char *key_pem, char *err, size_t errlen) {
  gnutls_certificate_credentials_t cred = NULL;
  gnutls_datum_t cert, key;
  int rc = gnutls_certificate_allocate_credentials(&cred);
  if (rc < 0) { snprintf(err, errlen, "gnutls_certificate_allocate_credentials: %s", gnutls_strerror(rc)); return NULL; }
  cert.data = (unsigned char *)cert_pem; cert.size = (unsigned int)strlen(cert_pem);
  key.data = (unsigned char *)key_pem; key.size = (unsigned int)strlen(key_pem);
  rc = gnutls_certificate_set_x509_key_mem2(cred, &cert, &key, GNUTLS_X509_FMT_PEM, NULL, 0);
  if (rc < 0) {
    snprintf(err, errlen, "loading the proxy certificate: %s", gnutls_strerror(rc));
    gnutls_certificate_free_credentials(cred);
    return NULL;
  }
  return cred;
}

static inline void vmsim_tls_free_credentials(gnutls_certificate_credentials_t cred) {
  if (cred) gnutls_certificate_free_credentials(cred);
}

/* Sets SO_RCVTIMEO and SO_SNDTIMEO on fd to ms milliseconds. */
static inline void vmsim_socket_timeouts(int fd, int ms) {
  struct timeval tv;
  tv.tv_sec = ms / 1000;
  tv.tv_usec = (ms % 1000) * 1000;
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

/*
 * A TLS server handshake on fd within timeout_ms. Returns the session, or NULL with a message
 * in err (the client's own alert, a timeout, no common cipher, …).
 */
static inline gnutls_session_t
vmsim_tls_accept(gnutls_certificate_credentials_t cred, int fd, int timeout_ms, char *err, size_t errlen) {
  gnutls_session_t session = NULL;
  int rc = gnutls_init(&session, GNUTLS_SERVER | GNUTLS_NO_SIGNAL);
  if (rc < 0) { snprintf(err, errlen, "gnutls_init: %s", gnutls_strerror(rc)); return NULL; }
  if ((rc = gnutls_set_default_priority(session)) < 0
      || (rc = gnutls_credentials_set(session, GNUTLS_CRD_CERTIFICATE, cred)) < 0) {
    snprintf(err, errlen, "setting up the TLS session: %s", gnutls_strerror(rc));
    gnutls_deinit(session);
    return NULL;
  }
  gnutls_certificate_server_set_request(session, GNUTLS_CERT_IGNORE);
  gnutls_transport_set_int(session, fd);
  vmsim_socket_timeouts(fd, timeout_ms);
  gnutls_handshake_set_timeout(session, (unsigned int)timeout_ms);
  do {
    rc = gnutls_handshake(session);
  } while (rc == GNUTLS_E_INTERRUPTED || (rc < 0 && rc != GNUTLS_E_AGAIN && !gnutls_error_is_fatal(rc)));
  if (rc < 0) {
    snprintf(err, errlen, "%s", rc == GNUTLS_E_AGAIN ? "TLS handshake timed out" : gnutls_strerror(rc));
    gnutls_deinit(session);
    return NULL;
  }
  return session;
}

static inline void vmsim_tls_end(gnutls_session_t session) {
  if (!session) return;
  vmsim_socket_timeouts(gnutls_transport_get_int(session), 1000);  /* close_notify: never wait long */
  gnutls_bye(session, GNUTLS_SHUT_WR);
  gnutls_deinit(session);
}

/* Writes all of buf to fd (or through session when not NULL); 0 on success, -1 on failure. */
static inline int vmsim_tunnel_write(gnutls_session_t session, int fd, const char *buf, size_t len) {
  while (len > 0) {
    ssize_t n;
    if (session) {
      n = gnutls_record_send(session, buf, len);
      if (n == GNUTLS_E_INTERRUPTED) continue;
    } else {
      n = send(fd, buf, len, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
    }
    if (n <= 0) return -1;
    buf += n;
    len -= (size_t)n;
  }
  return 0;
}

/* Why a tunnel ended. */
enum vmsim_tunnel_end {
  VMSIM_TUNNEL_CLOSED_BY_A = 0,
  VMSIM_TUNNEL_CLOSED_BY_B = 1,
  VMSIM_TUNNEL_IDLE = 2,
  VMSIM_TUNNEL_ERROR = 3,
  VMSIM_TUNNEL_STOPPED = 4
};

/*
 * What another thread may read of a running tunnel (and ask of it). `holding` is 1 from the
 * moment the tunnel takes bytes from side A until they are all written to side B (and while
 * the TLS session holds decrypted bytes not yet taken): so when A's socket has no unread bytes
 * (read first) and `holding` is 0 (read second), everything A's peer sent so far is on its way
 * to B. The proxy's drain waits for that before the server behind B drains.
 */
struct vmsim_tunnel_state {
  int stop;     /* set to 1 by another thread: the tunnel ends within 250 ms */
  int holding;
};

static inline void vmsim_tunnel_state_init(struct vmsim_tunnel_state *state) {
  __atomic_store_n(&state->stop, 0, __ATOMIC_SEQ_CST);
  __atomic_store_n(&state->holding, 0, __ATOMIC_SEQ_CST);
}

static inline int vmsim_tunnel_holding(struct vmsim_tunnel_state *state) {
  return __atomic_load_n(&state->holding, __ATOMIC_SEQ_CST);
}

static inline void vmsim_tunnel_request_stop(struct vmsim_tunnel_state *state) {
  __atomic_store_n(&state->stop, 1, __ATOMIC_SEQ_CST);
}

/* Bytes waiting unread in fd's receive buffer, or -1. */
static inline int vmsim_tunnel_unread_bytes(int fd) {
  int count = 0;
  return ioctl(fd, FIONREAD, &count) == 0 ? count : -1;
}

/*
 * Copies bytes both ways between side A (fd a_fd, decrypted through a_tls when not NULL) and
 * side B (fd b_fd, plain) until one side closes, an error, idle_ms without a byte either way,
 * or state->stop becomes non-zero (checked at least every 250 ms). Two 16 KiB buffers, each emptied
 * before the next read: nothing grows. Byte counts go to *a_to_b and *b_to_a. state may be NULL.
 */
static inline int vmsim_tunnel(gnutls_session_t a_tls, int a_fd, int b_fd, int idle_ms, struct vmsim_tunnel_state *state,
                               unsigned long long *a_to_b, unsigned long long *b_to_a) {
  char buf[16384];
  int idle = 0;
  vmsim_socket_timeouts(a_fd, idle_ms);
  vmsim_socket_timeouts(b_fd, idle_ms);
  for (;;) {
    int pending = a_tls && gnutls_record_check_pending(a_tls) > 0;
    if (state) {
      __atomic_store_n(&state->holding, pending, __ATOMIC_SEQ_CST);
      if (__atomic_load_n(&state->stop, __ATOMIC_SEQ_CST)) return VMSIM_TUNNEL_STOPPED;
    }
    int a_ready = 0, b_ready = 0;
    if (pending) {
      a_ready = 1;
    } else {
      struct pollfd fds[2] = { { a_fd, POLLIN, 0 }, { b_fd, POLLIN, 0 } };
      int slice = idle_ms - idle < 250 ? idle_ms - idle : 250;
      int rc = poll(fds, 2, slice > 0 ? slice : 1);
      if (rc < 0) { if (errno == EINTR) continue; return VMSIM_TUNNEL_ERROR; }
      if (rc == 0) {
        idle += slice > 0 ? slice : 1;
        if (idle >= idle_ms) return VMSIM_TUNNEL_IDLE;
        continue;
      }
      a_ready = fds[0].revents != 0;
      b_ready = fds[1].revents != 0;
    }
    idle = 0;
    if (a_ready) {
      ssize_t n;
      if (state) __atomic_store_n(&state->holding, 1, __ATOMIC_SEQ_CST);
      if (a_tls) {
        n = gnutls_record_recv(a_tls, buf, sizeof buf);
        if (n == GNUTLS_E_INTERRUPTED || n == GNUTLS_E_AGAIN) continue;
      } else {
        n = recv(a_fd, buf, sizeof buf, 0);
        if (n < 0 && errno == EINTR) continue;
      }
      if (n == 0) return VMSIM_TUNNEL_CLOSED_BY_A;
      if (n < 0) return a_tls && n == GNUTLS_E_PREMATURE_TERMINATION ? VMSIM_TUNNEL_CLOSED_BY_A : VMSIM_TUNNEL_ERROR;
      if (vmsim_tunnel_write(NULL, b_fd, buf, (size_t)n) != 0) return VMSIM_TUNNEL_ERROR;
      if (a_to_b) *a_to_b += (unsigned long long)n;
    }
    if (b_ready) {
      ssize_t n = recv(b_fd, buf, sizeof buf, 0);
      if (n < 0 && errno == EINTR) continue;
      if (n == 0) return VMSIM_TUNNEL_CLOSED_BY_B;
      if (n < 0) return VMSIM_TUNNEL_ERROR;
      if (vmsim_tunnel_write(a_tls, a_fd, buf, (size_t)n) != 0) return VMSIM_TUNNEL_ERROR;
      if (b_to_a) *b_to_a += (unsigned long long)n;
    }
  }
}

#endif
