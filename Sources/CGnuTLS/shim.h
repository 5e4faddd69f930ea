#ifndef VMSIM_CGNUTLS_SHIM_H
#define VMSIM_CGNUTLS_SHIM_H

/*
 * Certificate generation for `serve --tls` through GnuTLS's X.509 API: a local CA and
 * server certificates it signs (ECDSA P-256, SHA-256), exported as PEM. Kept in C so
 * that Swift sees a few plain functions instead of GnuTLS's many calls and datums.
 */

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <gnutls/crypto.h>

static inline void vmsim_tls_free(char *pem) { gnutls_free(pem); }

static inline int vmsim_tls_error(int rc, const char *what, char *err, size_t errlen) {
  snprintf(err, errlen, "%s: %s", what, gnutls_strerror(rc));
  return rc;
}

#define VMSIM_TLS_TRY(call, what) \
  do { rc = (call); if (rc < 0) { vmsim_tls_error(rc, what, err, errlen); goto done; } } while (0)

/*
 * Generates a fresh key and a certificate for it.
 * - issuer_key_pem / issuer_cert_pem NULL: a self-signed CA certificate.
 * - otherwise: a TLS server certificate signed by that CA, whose subjectAltName lists
 *   dns_names and ip_bytes (ip_count entries of 16 bytes, the first ip_lengths[i] used:
 *   4 for IPv4, 16 for IPv6).
 * On success returns 0 and sets *key_pem / *cert_pem (free with vmsim_tls_free); on
 * failure a negative GnuTLS code and a message in err.
 */
static inline int
vmsim_tls_generate(const char *issuer_key_pem, const char *issuer_cert_pem,
                   const char *common_name,
                   const char *const *dns_names, size_t dns_count,
                   const unsigned char *ip_bytes, const unsigned int *ip_lengths, size_t ip_count,
                   unsigned int validity_days,
                   char **key_pem, char **cert_pem, char *err, size_t errlen) {
  int rc = 0;
  int is_ca = (issuer_key_pem == NULL || issuer_cert_pem == NULL);
  gnutls_x509_privkey_t key = NULL, issuer_key = NULL;
  gnutls_x509_crt_t crt = NULL, issuer = NULL;
  gnutls_datum_t key_out = { NULL, 0 }, cert_out = { NULL, 0 };
  unsigned char serial[16];
  unsigned char key_id[64];
  size_t key_id_size;
  time_t now = time(NULL);
  *key_pem = NULL;
  *cert_pem = NULL;
  err[0] = '\0';

  VMSIM_TLS_TRY(gnutls_x509_privkey_init(&key), "gnutls_x509_privkey_init");
  VMSIM_TLS_TRY(gnutls_x509_privkey_generate(key, GNUTLS_PK_ECDSA,
                                             GNUTLS_CURVE_TO_BITS(GNUTLS_ECC_CURVE_SECP256R1), 0),
                "generating an ECDSA P-256 key");
  VMSIM_TLS_TRY(gnutls_x509_crt_init(&crt), "gnutls_x509_crt_init");
  VMSIM_TLS_TRY(gnutls_x509_crt_set_version(crt, 3), "setting the certificate version");
  VMSIM_TLS_TRY(gnutls_rnd(GNUTLS_RND_NONCE, serial, sizeof serial), "random serial number");
  serial[0] &= 0x7f;
  if (serial[0] == 0) serial[0] = 1;
  VMSIM_TLS_TRY(gnutls_x509_crt_set_serial(crt, serial, sizeof serial), "setting the serial number");
  VMSIM_TLS_TRY(gnutls_x509_crt_set_activation_time(crt, now - 3600), "setting the start of validity");
  VMSIM_TLS_TRY(gnutls_x509_crt_set_expiration_time(crt, now + (time_t)validity_days * 86400), "setting the end of validity");
  VMSIM_TLS_TRY(gnutls_x509_crt_set_dn_by_oid(crt, GNUTLS_OID_X520_ORGANIZATION_NAME, 0, "vietmap-sim", 11),
                "setting the organization");
  VMSIM_TLS_TRY(gnutls_x509_crt_set_dn_by_oid(crt, GNUTLS_OID_X520_COMMON_NAME, 0, common_name,
                                              (unsigned int)strlen(common_name)), "setting the common name");
  VMSIM_TLS_TRY(gnutls_x509_crt_set_key(crt, key), "attaching the key");
  key_id_size = sizeof key_id;
  VMSIM_TLS_TRY(gnutls_x509_crt_get_key_id(crt, GNUTLS_KEYID_USE_SHA1, key_id, &key_id_size), "computing the key id");
  VMSIM_TLS_TRY(gnutls_x509_crt_set_subject_key_id(crt, key_id, key_id_size), "setting the subject key id");

  if (is_ca) {
    VMSIM_TLS_TRY(gnutls_x509_crt_set_basic_constraints(crt, 1, 0), "setting CA:TRUE");
    VMSIM_TLS_TRY(gnutls_x509_crt_set_key_usage(crt, GNUTLS_KEY_KEY_CERT_SIGN | GNUTLS_KEY_CRL_SIGN
                                                     | GNUTLS_KEY_DIGITAL_SIGNATURE), "setting the key usage");
    VMSIM_TLS_TRY(gnutls_x509_crt_set_authority_key_id(crt, key_id, key_id_size), "setting the authority key id");
    VMSIM_TLS_TRY(gnutls_x509_crt_sign2(crt, crt, key, GNUTLS_DIG_SHA256, 0), "self-signing the CA");
  } else {
    gnutls_datum_t in;
    VMSIM_TLS_TRY(gnutls_x509_privkey_init(&issuer_key), "gnutls_x509_privkey_init");
    in.data = (unsigned char *)issuer_key_pem; in.size = (unsigned int)strlen(issuer_key_pem);
    VMSIM_TLS_TRY(gnutls_x509_privkey_import(issuer_key, &in, GNUTLS_X509_FMT_PEM), "reading the CA key");
    VMSIM_TLS_TRY(gnutls_x509_crt_init(&issuer), "gnutls_x509_crt_init");
    in.data = (unsigned char *)issuer_cert_pem; in.size = (unsigned int)strlen(issuer_cert_pem);
    VMSIM_TLS_TRY(gnutls_x509_crt_import(issuer, &in, GNUTLS_X509_FMT_PEM), "reading the CA certificate");
    VMSIM_TLS_TRY(gnutls_x509_crt_set_basic_constraints(crt, 0, -1), "setting CA:FALSE");
    VMSIM_TLS_TRY(gnutls_x509_crt_set_key_usage(crt, GNUTLS_KEY_DIGITAL_SIGNATURE), "setting the key usage");
    VMSIM_TLS_TRY(gnutls_x509_crt_set_key_purpose_oid(crt, GNUTLS_KP_TLS_WWW_SERVER, 0), "setting serverAuth");
    for (size_t i = 0; i < dns_count; i++)
      VMSIM_TLS_TRY(gnutls_x509_crt_set_subject_alt_name(crt, GNUTLS_SAN_DNSNAME, dns_names[i],
                                                         (unsigned int)strlen(dns_names[i]), GNUTLS_FSAN_APPEND),
                    "adding a DNS name");
    for (size_t i = 0; i < ip_count; i++)
      VMSIM_TLS_TRY(gnutls_x509_crt_set_subject_alt_name(crt, GNUTLS_SAN_IPADDRESS, ip_bytes + 16 * i,
                                                         ip_lengths[i], GNUTLS_FSAN_APPEND),
                    "adding an IP address");
    key_id_size = sizeof key_id;
    VMSIM_TLS_TRY(gnutls_x509_crt_get_subject_key_id(issuer, key_id, &key_id_size, NULL), "reading the CA key id");
    VMSIM_TLS_TRY(gnutls_x509_crt_set_authority_key_id(crt, key_id, key_id_size), "setting the authority key id");
    VMSIM_TLS_TRY(gnutls_x509_crt_sign2(crt, issuer, issuer_key, GNUTLS_DIG_SHA256, 0), "signing with the CA");
  }

  VMSIM_TLS_TRY(gnutls_x509_privkey_export2(key, GNUTLS_X509_FMT_PEM, &key_out), "exporting the key");
  VMSIM_TLS_TRY(gnutls_x509_crt_export2(crt, GNUTLS_X509_FMT_PEM, &cert_out), "exporting the certificate");
  /* The datums are not NUL-terminated: copy into strings. */
  *key_pem = gnutls_malloc(key_out.size + 1);
  *cert_pem = gnutls_malloc(cert_out.size + 1);
  if (*key_pem == NULL || *cert_pem == NULL) {
    rc = GNUTLS_E_MEMORY_ERROR;
    vmsim_tls_error(rc, "exporting", err, errlen);
    gnutls_free(*key_pem); gnutls_free(*cert_pem);
    *key_pem = NULL; *cert_pem = NULL;
    goto done;
  }
  memcpy(*key_pem, key_out.data, key_out.size); (*key_pem)[key_out.size] = '\0';
  memcpy(*cert_pem, cert_out.data, cert_out.size); (*cert_pem)[cert_out.size] = '\0';
  rc = 0;

done:
  if (key_out.data) gnutls_free(key_out.data);
  if (cert_out.data) gnutls_free(cert_out.data);
  if (crt) gnutls_x509_crt_deinit(crt);
  if (issuer) gnutls_x509_crt_deinit(issuer);
  if (key) gnutls_x509_privkey_deinit(key);
  if (issuer_key) gnutls_x509_privkey_deinit(issuer_key);
  return rc;
}

/*
 * Describes a PEM certificate: its subjectAltName entries as "DNS:name" / "IP:address"
 * separated by ',' into sans, and its expiration time. Returns 0 or a negative GnuTLS code.
 */
static inline int vmsim_tls_describe(const char *cert_pem, char *sans, size_t sans_size, time_t *expires) {
  gnutls_x509_crt_t crt = NULL;
  gnutls_datum_t in;
  int rc = gnutls_x509_crt_init(&crt);
  if (rc < 0) return rc;
  in.data = (unsigned char *)cert_pem; in.size = (unsigned int)strlen(cert_pem);
  rc = gnutls_x509_crt_import(crt, &in, GNUTLS_X509_FMT_PEM);
  if (rc < 0) { gnutls_x509_crt_deinit(crt); return rc; }
  *expires = gnutls_x509_crt_get_expiration_time(crt);
  size_t used = 0;
  if (sans_size > 0) sans[0] = '\0';
  for (unsigned int seq = 0;; seq++) {
    unsigned char value[256];
    size_t size = sizeof value - 1;
    int type = gnutls_x509_crt_get_subject_alt_name(crt, seq, value, &size, NULL);
    if (type < 0) break;
    char item[300];
    if (type == GNUTLS_SAN_DNSNAME) {
      value[size] = '\0';
      snprintf(item, sizeof item, "DNS:%s", (char *)value);
    } else if (type == GNUTLS_SAN_IPADDRESS && (size == 4 || size == 16)) {
      char text[INET6_ADDRSTRLEN];
      inet_ntop(size == 4 ? AF_INET : AF_INET6, value, text, sizeof text);
      snprintf(item, sizeof item, "IP:%s", text);
    } else {
      continue;
    }
    int written = snprintf(sans + used, sans_size - used, "%s%s", used ? "," : "", item);
    if (written < 0 || (size_t)written >= sans_size - used) break;
    used += (size_t)written;
  }
  gnutls_x509_crt_deinit(crt);
  return 0;
}

/*
 * Whether key_pem is the private key of the first certificate in cert_pem (their public-key
 * IDs agree) and, when issuer_cert_pem is not NULL, whether that certificate's signature
 * verifies with the issuer's key (validity dates not checked). Returns 1 when both hold, 0
 * when not, or a negative GnuTLS code when one of them cannot be read.
 */
static inline int vmsim_tls_check_pair(const char *key_pem, const char *cert_pem, const char *issuer_cert_pem) {
  gnutls_x509_privkey_t key = NULL;
  gnutls_x509_crt_t crt = NULL, issuer = NULL;
  unsigned char key_id[64], cert_id[64];
  size_t key_id_size = sizeof key_id, cert_id_size = sizeof cert_id;
  gnutls_datum_t in;
  int rc;
  if ((rc = gnutls_x509_privkey_init(&key)) < 0) goto done;
  in.data = (unsigned char *)key_pem; in.size = (unsigned int)strlen(key_pem);
  if ((rc = gnutls_x509_privkey_import(key, &in, GNUTLS_X509_FMT_PEM)) < 0) goto done;
  if ((rc = gnutls_x509_crt_init(&crt)) < 0) goto done;
  in.data = (unsigned char *)cert_pem; in.size = (unsigned int)strlen(cert_pem);
  if ((rc = gnutls_x509_crt_import(crt, &in, GNUTLS_X509_FMT_PEM)) < 0) goto done;
  if ((rc = gnutls_x509_privkey_get_key_id(key, GNUTLS_KEYID_USE_SHA256, key_id, &key_id_size)) < 0) goto done;
  if ((rc = gnutls_x509_crt_get_key_id(crt, GNUTLS_KEYID_USE_SHA256, cert_id, &cert_id_size)) < 0) goto done;
  rc = key_id_size == cert_id_size && memcmp(key_id, cert_id, key_id_size) == 0;
  if (rc == 1 && issuer_cert_pem != NULL) {
    unsigned int status = 0;
    if ((rc = gnutls_x509_crt_init(&issuer)) < 0) goto done;
    in.data = (unsigned char *)issuer_cert_pem; in.size = (unsigned int)strlen(issuer_cert_pem);
    if ((rc = gnutls_x509_crt_import(issuer, &in, GNUTLS_X509_FMT_PEM)) < 0) goto done;
    rc = gnutls_x509_crt_verify(crt, &issuer, 1, GNUTLS_VERIFY_DISABLE_TIME_CHECKS | GNUTLS_VERIFY_DISABLE_TRUSTED_TIME_CHECKS,
                                &status);
    rc = rc == 0 && status == 0;
  }
done:
  if (issuer) gnutls_x509_crt_deinit(issuer);
  if (crt) gnutls_x509_crt_deinit(crt);
  if (key) gnutls_x509_privkey_deinit(key);
  return rc;
}

#endif
