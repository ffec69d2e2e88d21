import Foundation

// WeftNetworking depends on COpenSSL on Linux only (Package.swift: `.when(platforms:
// [.linux])`); the guard says the same, so no other platform's build can see the module map
// (an Xcode build of the whole package may) and import a library it does not link.
#if os(Linux) && canImport(COpenSSL)
import COpenSSL

/// One TLS client session (the system OpenSSL) that never touches the socket: ciphertext from
/// the server goes in with ``feed(_:)``, plaintext comes out of ``decrypt(into:)``; plaintext
/// goes in with ``encrypt(_:)`` and the ciphertext to send comes out of ``takeOutput()``.
/// The owner (`POSIXWebSocket`) moves the bytes with its own `recv` and `send`, so writes keep
/// `MSG_NOSIGNAL` and its poll slices, and reads never wait on the write lock.
///
/// Verification is always on (`SSL_VERIFY_PEER`) with the URL's host checked against the
/// certificate (`SSL_set1_host`, or `X509_VERIFY_PARAM_set1_ip_asc` for an IP literal); SNI is
/// sent for DNS names. A failed verification is ``WebSocketError/certificateRejected(host:reason:)``
/// with OpenSSL's verify error string; anything else is ``WebSocketError/tls(host:reason:)``.
///
/// - Complexity: O(bytes) per call; making a session with ``WebSocketTLS/Trust/system`` reads
///   the system trust store (a few milliseconds).
/// - Note: Isolation: not thread-safe; the owner keeps it behind WeftCore's `Locked` and calls
///   it from one thread at a time.
/// - Note: Allocations: OpenSSL's context, session and two memory BIOs; one array per output.
final class TLSSession {
  /// The host the certificate must name (brackets of an IPv6 literal removed).
  let host: String
  private let ssl: OpaquePointer
  private let input: OpaquePointer
  private let output: OpaquePointer
  private var scratch = [UInt8](repeating: 0, count: 16 * 1024)

  /// Makes a client session for `host` with `settings`' trust.
  ///
  /// - Throws: ``WebSocketError/tls(host:reason:)`` when the trust store cannot be loaded
  ///   (e.g. a PEM file that does not exist or holds no certificate) or OpenSSL fails.
  init(host rawHost: String, settings: WebSocketTLS) throws(WebSocketError) {
    let host =
      rawHost.hasPrefix("[") && rawHost.hasSuffix("]")
      ? String(rawHost.dropFirst().dropLast()) : rawHost
    self.host = host
    ERR_clear_error()
    guard let context = SSL_CTX_new(TLS_client_method()) else {
      throw .tls(host: host, reason: "SSL_CTX_new: \(Self.errorQueue())")
    }
    // The session holds its own reference to the context.
    defer { SSL_CTX_free(context) }
    guard weft_SSL_CTX_require_tls12(context) == 1 else {
      throw .tls(host: host, reason: "cannot require TLS 1.2: \(Self.errorQueue())")
    }
    weft_SSL_CTX_set_client_modes(context)
    weft_SSL_CTX_verify_peer(context)
    try Self.loadTrust(settings.trust, into: context, host: host)
    guard let ssl = SSL_new(context) else {
      throw .tls(host: host, reason: "SSL_new: \(Self.errorQueue())")
    }
    guard let input = BIO_new(BIO_s_mem()), let output = BIO_new(BIO_s_mem()) else {
      SSL_free(ssl)
      throw .tls(host: host, reason: "BIO_new: \(Self.errorQueue())")
    }
    weft_BIO_mem_retry_when_empty(input)
    weft_BIO_mem_retry_when_empty(output)
    // The session owns both BIOs from here on (SSL_free frees them).
    SSL_set_bio(ssl, input, output)
    SSL_set_connect_state(ssl)
    let isIP = Self.isIPAddress(host)
    // RFC 6066: SNI carries DNS names only, never an IP literal.
    guard isIP || weft_SSL_set_tlsext_host_name(ssl, host) == 1,
      weft_SSL_expect_host(ssl, host, isIP ? 1 : 0) == 1
    else {
      SSL_free(ssl)
      throw .tls(host: host, reason: "cannot set the expected host name: \(Self.errorQueue())")
    }
    self.ssl = ssl
    self.input = input
    self.output = output
  }

  deinit { SSL_free(ssl) }

  /// Advances the handshake with what ``feed(_:)`` gave it; true once it is complete. Send
  /// ``takeOutput()`` after every call (it may hold an alert even when this throws).
  ///
  /// - Throws: ``WebSocketError/certificateRejected(host:reason:)`` when the server's
  ///   certificate does not verify or does not name the host; ``WebSocketError/tls(host:reason:)``
  ///   for any other failure (e.g. a server that does not speak TLS).
  func handshake() throws(WebSocketError) -> Bool {
    ERR_clear_error()
    let result = SSL_do_handshake(ssl)
    if result == 1 { return true }
    let code = SSL_get_error(ssl, result)
    if code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE { return false }
    let verify = SSL_get_verify_result(ssl)
    if verify != Int(X509_V_OK) {
      let why = String(cString: X509_verify_cert_error_string(verify))
      throw .certificateRejected(host: host, reason: "\(why) (X509 verify error \(verify))")
    }
    throw .tls(host: host, reason: "handshake failed: \(Self.describe(code))")
  }

  /// Hands OpenSSL ciphertext the server sent.
  func feed(_ bytes: ArraySlice<UInt8>) throws(WebSocketError) {
    guard !bytes.isEmpty else { return }
    // A memory BIO takes everything it is given (it grows).
    let written = bytes.withUnsafeBytes { BIO_write(input, $0.baseAddress, Int32($0.count)) }
    guard written == Int32(bytes.count) else {
      throw .tls(host: host, reason: "BIO_write: \(Self.errorQueue())")
    }
  }

  /// Decrypts all the application data the fed ciphertext holds, appending it to
  /// `plaintext`; true when the server sent its TLS close_notify.
  func decrypt(into plaintext: inout [UInt8]) throws(WebSocketError) -> Bool {
    while true {
      ERR_clear_error()
      let count = scratch.withUnsafeMutableBytes {
        SSL_read(ssl, $0.baseAddress, Int32($0.count))
      }
      if count > 0 {
        plaintext.append(contentsOf: scratch[..<Int(count)])
        continue
      }
      let code = SSL_get_error(ssl, count)
      if code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE { return false }
      if code == SSL_ERROR_ZERO_RETURN { return true }
      throw .tls(host: host, reason: "read failed: \(Self.describe(code))")
    }
  }

  /// Encrypts `bytes` (all of them); the records wait in ``takeOutput()``.
  func encrypt(_ bytes: [UInt8]) throws(WebSocketError) {
    var offset = 0
    while offset < bytes.count {
      ERR_clear_error()
      let written = bytes.withUnsafeBytes {
        SSL_write(ssl, $0.baseAddress! + offset, Int32(min($0.count - offset, 1 << 30)))
      }
      guard written > 0 else {
        throw .tls(
          host: host, reason: "write failed: \(Self.describe(SSL_get_error(ssl, written)))")
      }
      offset += Int(written)
    }
  }

  /// Whether ciphertext waits to be sent.
  var hasOutput: Bool { BIO_ctrl_pending(output) > 0 }

  /// The ciphertext waiting to be sent, in order; empty when none.
  func takeOutput() -> [UInt8] {
    let pending = Int(BIO_ctrl_pending(output))
    guard pending > 0 else { return [] }
    var bytes = [UInt8](repeating: 0, count: pending)
    let read = bytes.withUnsafeMutableBytes { BIO_read(output, $0.baseAddress, Int32($0.count)) }
    return read > 0 ? Array(bytes[..<Int(read)]) : []
  }

  /// The TLS close_notify to send before closing the socket; empty before the handshake
  /// finished.
  func closeNotify() -> [UInt8] {
    guard SSL_is_init_finished(ssl) == 1 else { return [] }
    ERR_clear_error()
    // The result only says whether the server's close_notify arrived too; not waited for.
    _ = SSL_shutdown(ssl)
    ERR_clear_error()
    return takeOutput()
  }

  // MARK: Helpers

  private static func loadTrust(
    _ trust: WebSocketTLS.Trust, into context: OpaquePointer, host: String
  ) throws(WebSocketError) {
    switch trust {
    case .system:
      guard SSL_CTX_set_default_verify_paths(context) == 1 else {
        throw .tls(host: host, reason: "cannot load the system trust store: \(errorQueue())")
      }
    case .pemFile(let path):
      guard SSL_CTX_load_verify_locations(context, path, nil) == 1 else {
        throw .tls(
          host: host, reason: "cannot load trusted certificates from \(path): \(errorQueue())")
      }
      _ = weft_SSL_CTX_allow_partial_chain(context)
    case .pem(let text):
      let store = SSL_CTX_get_cert_store(context)
      let bio = text.utf8CString.withUnsafeBufferPointer {
        BIO_new_mem_buf($0.baseAddress, Int32($0.count - 1))
      }
      guard let store, let bio else {
        throw .tls(host: host, reason: "cannot read the PEM text: \(errorQueue())")
      }
      defer { BIO_free(bio) }
      var added = 0
      while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) {
        defer { X509_free(certificate) }
        guard X509_STORE_add_cert(store, certificate) == 1 else {
          throw .tls(host: host, reason: "cannot trust a certificate: \(errorQueue())")
        }
        added += 1
      }
      // Reading stops with a "no start line" error at the end of the text.
      ERR_clear_error()
      guard added > 0 else {
        throw .tls(host: host, reason: "the trusted PEM text holds no certificate")
      }
      _ = weft_SSL_CTX_allow_partial_chain(context)
    }
  }

  private static func isIPAddress(_ host: String) -> Bool {
    var v4 = in_addr()
    var v6 = in6_addr()
    return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
  }

  /// `SSL_get_error`'s code and OpenSSL's error queue, in words.
  private static func describe(_ code: Int32) -> String {
    let queue = errorQueue()
    switch code {
    case SSL_ERROR_SYSCALL: return queue.isEmpty ? "the connection ended unexpectedly" : queue
    case SSL_ERROR_SSL: return queue.isEmpty ? "protocol error" : queue
    default: return queue.isEmpty ? "SSL error \(code)" : "SSL error \(code): \(queue)"
    }
  }

  /// Drains this thread's OpenSSL error queue into one line ("" when empty).
  private static func errorQueue() -> String {
    var parts: [String] = []
    var buffer = [CChar](repeating: 0, count: 256)
    while true {
      let error = ERR_get_error()
      if error == 0 { break }
      buffer.withUnsafeMutableBufferPointer { ERR_error_string_n(error, $0.baseAddress, $0.count) }
      parts.append(buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    }
    return parts.joined(separator: "; ")
  }
}

#else

/// This platform's build has no OpenSSL (the COpenSSL target is Linux-only), so no TLS session
/// can exist: ``make(host:settings:)`` always throws, and `connect()` refuses `wss://` with it.
/// Apple platforms reach `wss://` through `URLSessionRealtimeTransport`.
///
/// - Complexity: O(1).
/// - Note: Isolation: uninhabited; nothing to isolate.
enum TLSSession {
  var host: String { switch self {} }
  var hasOutput: Bool { switch self {} }
  func handshake() throws(WebSocketError) -> Bool { switch self {} }
  func feed(_ bytes: ArraySlice<UInt8>) throws(WebSocketError) { switch self {} }
  func decrypt(into plaintext: inout [UInt8]) throws(WebSocketError) -> Bool { switch self {} }
  func encrypt(_ bytes: [UInt8]) throws(WebSocketError) { switch self {} }
  func takeOutput() -> [UInt8] { switch self {} }
  func closeNotify() -> [UInt8] { switch self {} }
}

#endif

extension TLSSession {
  /// A session for `host`, or, where this build has no OpenSSL, ``WebSocketError/tls(host:reason:)``
  /// saying so.
  static func make(host: String, settings: WebSocketTLS) throws(WebSocketError) -> TLSSession {
    #if os(Linux) && canImport(COpenSSL)
    return try TLSSession(host: host, settings: settings)
    #else
    throw .tls(
      host: host,
      reason:
        "wss:// needs OpenSSL, which only Linux builds of POSIXWebSocketTransport link; "
        + "on Apple platforms use URLSessionRealtimeTransport")
    #endif
  }
}
