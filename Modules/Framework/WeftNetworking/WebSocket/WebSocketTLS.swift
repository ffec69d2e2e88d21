/// How ``POSIXWebSocketTransport`` checks the server of a `wss://` URL.
///
/// The server's certificate is always verified: its chain must lead to a trusted certificate
/// and it must name the URL's host (a DNS name, or an IP address for an IP literal URL). There
/// is no option that accepts any certificate. What changes is *what is trusted*: the system's
/// store (the default), or only the certificates you give, e.g. a private CA or the
/// self-signed certificate of a test server ("trust this certificate").
///
/// ```swift
/// // A test server with a self-signed certificate for 127.0.0.1:
/// let tls = WebSocketTLS(trust: .pemFile("/tmp/server-cert.pem"))
/// let transport = POSIXWebSocketTransport(
///   url: URL(string: "wss://127.0.0.1:8443/feed")!,
///   configuration: WebSocketConfiguration(tls: tls))
/// ```
///
/// - Complexity: O(1) to copy; the trust store is read on each `connect()`.
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: the strings it carries.
public struct WebSocketTLS: Sendable, Equatable {
  /// Which certificates anchor the verification of the server's chain.
  public enum Trust: Sendable, Equatable {
    /// The system's trust store: OpenSSL's default verify paths (on Debian and Ubuntu,
    /// `/etc/ssl/certs`, from the `ca-certificates` package). The default.
    case system
    /// Only the certificates in this PEM file (one or more `BEGIN CERTIFICATE` blocks): a
    /// private CA, or a server's own self-signed certificate. The system store is not used.
    /// A certificate listed here anchors the chain even if it is not a root.
    case pemFile(String)
    /// Only the certificates in this PEM text, as for ``pemFile(_:)``.
    case pem(String)
  }

  /// What is trusted; ``Trust/system`` by default.
  public var trust: Trust

  /// Makes TLS settings; by default the system's trust store.
  public init(trust: Trust = .system) {
    self.trust = trust
  }
}
