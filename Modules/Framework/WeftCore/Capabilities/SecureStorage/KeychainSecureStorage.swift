#if canImport(Security)
import Foundation
import Security

/// Secrets in the Keychain: generic-password items of one `service`, one per key, readable
/// after the device's first unlock and never migrated to another device.
///
/// Compiled on Apple platforms only (the CI's Apple jobs build it; there is nothing to run
/// on Linux).
///
/// - Complexity: each call is one Keychain query (an IPC to `securityd`).
/// - Note: Isolation: `Sendable`; the Keychain API is thread-safe.
public struct KeychainSecureStorage: SecureStorage {
  /// The items' `kSecAttrService`: the app's identifier.
  public let service: String

  /// A store of `service`'s items.
  ///
  /// - Complexity: O(1).
  public init(service: String) { self.service = service }

  private func query(_ key: String) -> [String: Any] {
    [
      kSecClass as String: kSecClassGenericPassword,
      kSecAttrService as String: service,
      kSecAttrAccount as String: key,
    ]
  }

  private func failure(
    _ operation: SecureStorageError.Operation, _ key: String, _ status: OSStatus
  ) -> SecureStorageError {
    let message = SecCopyErrorMessageString(status, nil).map { $0 as String }
    return SecureStorageError(
      operation: operation, key: key, detail: message ?? "Keychain status \(status)")
  }

  /// Stores `secret` under `key` (updates the item, or adds it).
  ///
  /// - Throws: `SecureStorageError` with the Keychain's message.
  /// - Complexity: one or two Keychain queries.
  public func set(_ secret: [UInt8], for key: String) async throws(SecureStorageError) {
    let update: [String: Any] = [kSecValueData as String: Data(secret)]
    var status = SecItemUpdate(query(key) as CFDictionary, update as CFDictionary)
    if status == errSecItemNotFound {
      var item = query(key)
      item[kSecValueData as String] = Data(secret)
      item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
      status = SecItemAdd(item as CFDictionary, nil)
    }
    guard status == errSecSuccess else { throw failure(.set, key, status) }
  }

  /// The secret under `key`, if any.
  ///
  /// - Throws: `SecureStorageError` with the Keychain's message.
  /// - Complexity: one Keychain query.
  public func read(_ key: String) async throws(SecureStorageError) -> [UInt8]? {
    var search = query(key)
    search[kSecReturnData as String] = true
    search[kSecMatchLimit as String] = kSecMatchLimitOne
    var result: CFTypeRef?
    let status = SecItemCopyMatching(search as CFDictionary, &result)
    if status == errSecItemNotFound { return nil }
    guard status == errSecSuccess, let data = result as? Data else {
      throw failure(.read, key, status)
    }
    return [UInt8](data)
  }

  /// Removes the item of `key`, if any.
  ///
  /// - Throws: `SecureStorageError` with the Keychain's message.
  /// - Complexity: one Keychain query.
  public func delete(_ key: String) async throws(SecureStorageError) {
    let status = SecItemDelete(query(key) as CFDictionary)
    guard status == errSecSuccess || status == errSecItemNotFound else {
      throw failure(.delete, key, status)
    }
  }
}
#endif
