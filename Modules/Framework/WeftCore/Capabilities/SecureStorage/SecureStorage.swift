/// Where an app keeps secrets — session tokens, refresh tokens, keys — apart from its data:
/// set, read and delete a value by key.
///
/// ```swift
/// let secrets = SecureStorageCapability.platform(service: "com.example.health")
/// try await secrets.storage.setString(session.token, for: "session.token")
/// let token = try await secrets.storage.readString("session.token")   // after a relaunch
/// try await secrets.storage.delete("session.token")                   // at logout
/// ```
///
/// Three implementations:
/// - `KeychainSecureStorage` (Apple platforms): the Keychain, the system's store for
///   secrets, encrypted and tied to the device.
/// - `FileSecureStorage` (Linux, where there is no system store every desktop and server
///   has): a file per key in an owner-only folder of the user's data directory. It is as
///   private as the user's account and no more: see its documentation.
/// - `InMemorySecureStorage`: for tests and the simulator; nothing outlives the process.
///
/// `SecureStorageCapability` registers one with a `CapabilityManager`.
///
/// - Note: Isolation: implementations are `Sendable`; every call may come from any
///   isolation.
public protocol SecureStorage: Sendable {
  /// Stores `secret` under `key`, replacing what was there.
  ///
  /// - Throws: `SecureStorageError` when the store refuses the write.
  func set(_ secret: [UInt8], for key: String) async throws(SecureStorageError)

  /// The secret stored under `key`, or `nil` when there is none.
  ///
  /// - Throws: `SecureStorageError` when the store cannot be read.
  func read(_ key: String) async throws(SecureStorageError) -> [UInt8]?

  /// Removes the secret under `key`; nothing happens when there is none.
  ///
  /// - Throws: `SecureStorageError` when the store refuses the deletion.
  func delete(_ key: String) async throws(SecureStorageError)
}

extension SecureStorage {
  /// Stores `secret`'s UTF-8 bytes under `key`.
  ///
  /// - Throws: `SecureStorageError` when the store refuses the write.
  /// - Complexity: O(n), n = the secret's length, plus the store's write.
  public func setString(_ secret: String, for key: String) async throws(SecureStorageError) {
    try await set(Array(secret.utf8), for: key)
  }

  /// The secret under `key` as UTF-8 text, or `nil` when there is none.
  ///
  /// - Throws: `SecureStorageError` when the store cannot be read, or the bytes are not
  ///   UTF-8.
  /// - Complexity: O(n), n = the secret's length, plus the store's read.
  public func readString(_ key: String) async throws(SecureStorageError) -> String? {
    guard let bytes = try await read(key) else { return nil }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw SecureStorageError(
        operation: .read, key: key, detail: "the stored value is not UTF-8 text")
    }
    return text
  }
}

/// A secure store refused an operation.
///
/// Its description names the operation and the key, never the secret.
///
/// - Note: Isolation: a `Sendable` value.
public struct SecureStorageError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What was attempted.
  ///
  /// - Note: Isolation: a `Sendable` value.
  public enum Operation: String, Sendable, Equatable {
    case set, read, delete
  }

  /// What was attempted.
  public var operation: Operation
  /// The key it was attempted on.
  public var key: String
  /// The store's reason (an `errno` text, a Keychain status message).
  public var detail: String

  /// Makes an error.
  ///
  /// - Complexity: O(1).
  public init(operation: Operation, key: String, detail: String) {
    self.operation = operation
    self.key = key
    self.detail = detail
  }

  public var description: String {
    "secure storage could not \(operation.rawValue) the secret '\(key)': \(detail)"
  }
}
