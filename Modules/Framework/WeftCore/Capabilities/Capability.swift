/// A typed ability a client may use — storage, network, analytics — that can be present,
/// absent or temporarily unavailable, so clients degrade gracefully instead of failing.
///
/// ```swift
/// struct StorageCapability: Capability {
///   func execute(_ request: Data) async throws -> Bool { ... }
/// }
/// await capabilities.register(StorageCapability())
/// if await capabilities.validate(StorageCapability.self) { ... } else { /* memory only */ }
/// ```
///
/// - Note: Isolation: implementations are `Sendable` and may be called from any isolation.
public protocol Capability: Sendable {
  /// What `execute` takes.
  associatedtype Request: Sendable
  /// What `execute` returns.
  associatedtype Response: Sendable

  /// A stable name for messages and availability reports; defaults to the type's name.
  static var name: String { get }

  /// Performs the capability's work.
  func execute(_ request: Request) async throws -> Response
}

extension Capability {
  /// The type's name.
  public static var name: String { String(describing: Self.self) }
}

/// What went wrong when using a capability.
public enum CapabilityError: Error, Equatable, CustomStringConvertible {
  /// No implementation of the capability was registered.
  case notRegistered(capability: String)
  /// The capability is registered but currently unavailable (offline, permission revoked).
  case unavailable(capability: String)
  /// The implementation threw; `message` describes the underlying error.
  case failed(capability: String, message: String)

  public var description: String {
    switch self {
    case .notRegistered(let name):
      "capability \(name) is not registered: register an implementation with "
        + "CapabilityManager.register(_:) before using it"
    case .unavailable(let name):
      "capability \(name) is unavailable: check validate(_:) first and degrade "
        + "(queue offline, keep in memory)"
    case .failed(let name, let message):
      "capability \(name) failed: \(message)"
    }
  }
}
