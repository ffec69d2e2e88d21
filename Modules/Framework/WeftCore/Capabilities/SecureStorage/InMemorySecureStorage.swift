/// Secrets in memory, for tests and the simulator: nothing is written anywhere and nothing
/// outlives the object. Share one instance across the app's relaunches to keep a session.
///
/// - Complexity: each call O(k) to hash the key, k = its length.
/// - Note: Isolation: thread-safe (a lock around a dictionary).
public final class InMemorySecureStorage: SecureStorage {
  private let secrets = Locked<[String: [UInt8]]>([:])

  /// Makes an empty store.
  ///
  /// - Complexity: O(1).
  public init() {}

  /// Stores `secret` under `key`.
  ///
  /// - Complexity: O(k + n), k = the key's length, n = the secret's.
  public func set(_ secret: [UInt8], for key: String) async throws(SecureStorageError) {
    secrets.withLock { $0[key] = secret }
  }

  /// The secret under `key`, if any.
  ///
  /// - Complexity: O(k), k = the key's length.
  public func read(_ key: String) async throws(SecureStorageError) -> [UInt8]? {
    secrets.withLock { $0[key] }
  }

  /// Removes the secret under `key`.
  ///
  /// - Complexity: O(k), k = the key's length.
  public func delete(_ key: String) async throws(SecureStorageError) {
    secrets.withLock { $0[key] = nil }
  }

  /// The keys stored now, sorted (for tests).
  ///
  /// - Complexity: O(s log s), s = secrets stored.
  public var keys: [String] { secrets.withLock { $0.keys.sorted() } }
}
