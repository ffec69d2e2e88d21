#ifndef WEFT_COPENSSL_SHIM_H
#define WEFT_COPENSSL_SHIM_H
// The system OpenSSL (libssl, libcrypto) for WeftNetworking's wss:// client on Linux.
// Linux-only: Package.swift depends on this target only when building for Linux.
//
// OpenSSL spells several calls as macros over SSL_ctrl/SSL_CTX_ctrl, which Swift cannot call;
// the static inline functions below wrap the ones Weft needs. Works with OpenSSL 1.1.1 and 3.x.
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

/// Sets the TLS SNI server name (SSL_set_tlsext_host_name is a macro). Returns 1 on success.
static inline int weft_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
  return (int)SSL_set_tlsext_host_name(ssl, name);
}

/// Refuses anything older than TLS 1.2 (SSL_CTX_set_min_proto_version is a macro). Returns 1
/// on success.
static inline int weft_SSL_CTX_require_tls12(SSL_CTX *ctx) {
  return (int)SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
}

/// Partial writes and a write buffer that may move between retries (SSL_CTX_set_mode is a
/// macro), and no TLS compression (SSL_OP_NO_COMPRESSION is a macro of macros).
static inline void weft_SSL_CTX_set_client_modes(SSL_CTX *ctx) {
  SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  SSL_CTX_set_options(ctx, SSL_OP_NO_COMPRESSION);
}

/// Lets a certificate in the trust store anchor verification even when it is not a
/// self-signed root ("trust this certificate"): X509_V_FLAG_PARTIAL_CHAIN. Returns 1 on
/// success.
static inline int weft_SSL_CTX_allow_partial_chain(SSL_CTX *ctx) {
  X509_STORE *store = SSL_CTX_get_cert_store(ctx);
  if (store == NULL) return 0;
  return X509_STORE_set_flags(store, X509_V_FLAG_PARTIAL_CHAIN);
}

/// Makes an empty memory BIO report "retry" instead of end of file, so that SSL_read and
/// SSL_do_handshake over it answer SSL_ERROR_WANT_READ until more bytes are written into it
/// (BIO_set_mem_eof_return is a macro).
static inline void weft_BIO_mem_retry_when_empty(BIO *bio) {
  BIO_set_mem_eof_return(bio, -1);
}

/// Certificate verification on: the handshake fails unless the chain verifies.
static inline void weft_SSL_CTX_verify_peer(SSL_CTX *ctx) {
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
}

/// Requires the certificate to name `host`: a DNS name (no partial wildcards), or, when
/// `is_ip` is nonzero, an IP address (IPv4 or IPv6 text). Returns 1 on success.
static inline int weft_SSL_expect_host(SSL *ssl, const char *host, int is_ip) {
  X509_VERIFY_PARAM *param = SSL_get0_param(ssl);
  if (param == NULL) return 0;
  if (is_ip) return X509_VERIFY_PARAM_set1_ip_asc(param, host);
  X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
  return SSL_set1_host(ssl, host);
}

#endif
