/// The secure-storage capability: a `SecureStorage` registered with a `CapabilityManager`,
/// so a client can check it is there (`validate`) and degrade — keep a session for this
/// launch only — when it is not (a locked device, a sandbox without a data directory).
///
/// ```swift
/// await capabilities.register(SecureStorageCapability.platform(service: "com.example.app"))
/// if await capabilities.validate(SecureStorageCapability.self) {
///   _ = try await capabilities.execute(
///     SecureStorageCapability.self, with: .set("session.token", Array(token.utf8)))
/// }
/// ```
///
/// - Complexity: the store's own cost per request.
/// - Note: Isolation: `Sendable`; requests run on the caller's isolation, then the store's.
public struct SecureStorageCapability: Capability {
  /// One operation on the store.
  ///
  /// - Note: Isolation: a `Sendable` value.
  public enum Request: Sendable, Equatable {
    /// Store the bytes under the key.
    case set(String, [UInt8])
    /// Read the key's bytes (the response; `nil` when absent).
    case read(String)
    /// Delete the key.
    case delete(String)
  }

  /// The store behind the capability.
  public let storage: any SecureStorage

  /// Wraps `storage`.
  ///
  /// - Complexity: O(1).
  public init(_ storage: any SecureStorage) { self.storage = storage }

  /// The platform's store: the Keychain (items of `service`) on Apple platforms;
  /// elsewhere a `FileSecureStorage` in the user's data directory, in a folder named
  /// `service`.
  ///
  /// - Complexity: O(1); nothing is created until the first write.
  public static func platform(service: String) -> SecureStorageCapability {
    #if canImport(Security)
    SecureStorageCapability(KeychainSecureStorage(service: service))
    #else
    SecureStorageCapability(FileSecureStorage.userData(app: service))
    #endif
  }

  /// Runs one request: `.read` returns the bytes (or `nil`), the others `nil`.
  ///
  /// - Throws: `SecureStorageError` from the store.
  /// - Complexity: the store's cost.
  public func execute(_ request: Request) async throws -> [UInt8]? {
    switch request {
    case .set(let key, let secret):
      try await storage.set(secret, for: key)
      return nil
    case .read(let key):
      return try await storage.read(key)
    case .delete(let key):
      try await storage.delete(key)
      return nil
    }
  }
}
