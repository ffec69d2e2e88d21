#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Secrets in one file per app, in an owner-only folder: the secure store of platforms
/// without a system one (Linux).
///
/// `userData(app:)` keeps them in `$XDG_DATA_HOME/<app>/secure-storage/secrets`
/// (`~/.local/share/<app>/…` when `XDG_DATA_HOME` is not set): the folder is created with
/// mode 0700 (and set back to 0700 if found more open), the file with 0600, written whole to
/// a temporary file, flushed and renamed over the old one, so a crash leaves the old secrets
/// or the new ones, never half.
///
/// > Important: What this is, honestly: the bytes are stored as they are (hex-encoded), not
/// > encrypted. They are protected by the file system's permissions only: other users of
/// > the machine cannot read them, but anything running as the same user can, and so can
/// > root and anyone holding the disk (unless the disk is encrypted). It keeps a token out
/// > of the database (which is copied, backed up and attached to bug reports) and out of
/// > world-readable places; it is not a keyring. An app that needs more can implement
/// > `SecureStorage` on the desktop's Secret Service (libsecret) or a hardware key.
///
/// Writes from one process are serialised; two processes writing the same file at once keep
/// the last writer's secrets.
///
/// - Complexity: each call reads the file (O(s), s = its size); `set` and `delete` also
///   write it whole. Meant for a handful of small secrets.
/// - Note: Isolation: thread-safe; calls block the calling thread on a small file's I/O.
public final class FileSecureStorage: SecureStorage {
  /// The file holding the secrets.
  public let file: String
  /// The owner-only folder holding `file`.
  public let folder: String
  private let lock = Locked(())

  /// A store in `folder` (created 0700 at the first write if missing), in the file
  /// `secrets`.
  ///
  /// - Complexity: O(1); nothing is touched until the first call.
  public init(folder: String) {
    self.folder = folder
    self.file = folder + "/secrets"
  }

  /// The store of `app` in the user's data directory:
  /// `$XDG_DATA_HOME/<app>/secure-storage`, or `$HOME/.local/share/<app>/secure-storage`.
  ///
  /// - Complexity: O(1).
  public static func userData(app: String) -> FileSecureStorage {
    FileSecureStorage(folder: dataDirectory() + "/" + app + "/secure-storage")
  }

  /// The user's data directory: `$XDG_DATA_HOME` when set to an absolute path, else
  /// `$HOME/.local/share` (the XDG Base Directory specification's default).
  ///
  /// - Complexity: O(1).
  public static func dataDirectory() -> String {
    if let xdg = environment("XDG_DATA_HOME"), xdg.hasPrefix("/") { return xdg }
    let home = environment("HOME") ?? "/"
    return (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/.local/share"
  }

  private static func environment(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    let text = String(cString: value)
    return text.isEmpty ? nil : text
  }

  /// Stores `secret` under `key`, rewriting the file.
  ///
  /// - Throws: `SecureStorageError` naming the file and the system's reason.
  /// - Complexity: O(s), s = the file's size.
  public func set(_ secret: [UInt8], for key: String) async throws(SecureStorageError) {
    try lock.withLock { (_) throws(SecureStorageError) in
      var secrets = try load(.set, key)
      secrets[key] = secret
      try save(secrets, .set, key)
    }
  }

  /// The secret under `key`, if any.
  ///
  /// - Throws: `SecureStorageError` when the file exists but cannot be read or parsed.
  /// - Complexity: O(s), s = the file's size.
  public func read(_ key: String) async throws(SecureStorageError) -> [UInt8]? {
    try lock.withLock { (_) throws(SecureStorageError) in try load(.read, key)[key] }
  }

  /// Removes the secret under `key`, rewriting the file (removing it when it was the last).
  ///
  /// - Throws: `SecureStorageError` naming the file and the system's reason.
  /// - Complexity: O(s), s = the file's size.
  public func delete(_ key: String) async throws(SecureStorageError) {
    try lock.withLock { (_) throws(SecureStorageError) in
      var secrets = try load(.delete, key)
      guard secrets.removeValue(forKey: key) != nil else { return }
      if secrets.isEmpty {
        guard unlink(file) == 0 || errno == ENOENT else {
          throw failure(.delete, key, "cannot remove \(file)")
        }
      } else {
        try save(secrets, .delete, key)
      }
    }
  }

  // MARK: The file

  private func failure(
    _ operation: SecureStorageError.Operation, _ key: String, _ what: String
  ) -> SecureStorageError {
    SecureStorageError(
      operation: operation, key: key, detail: "\(what): \(String(cString: strerror(errno)))")
  }

  /// Every secret in the file; empty when there is no file.
  private func load(
    _ operation: SecureStorageError.Operation, _ key: String
  ) throws(SecureStorageError) -> [String: [UInt8]] {
    let descriptor = open(file, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      if errno == ENOENT { return [:] }
      throw failure(operation, key, "cannot open \(file)")
    }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { readBytes(descriptor, $0) }
      if count < 0 {
        if errno == EINTR { continue }
        throw failure(operation, key, "cannot read \(file)")
      }
      if count == 0 { break }
      bytes.append(contentsOf: chunk[0..<count])
    }
    guard let secrets = SecretsFileFormat.decode(bytes) else {
      throw SecureStorageError(
        operation: operation, key: key,
        detail: "\(file) is not a secrets file written by FileSecureStorage; move it away to "
          + "start empty")
    }
    return secrets
  }

  /// Writes `secrets` to a temporary file beside `file`, flushes it and renames it over
  /// `file`.
  private func save(
    _ secrets: [String: [UInt8]], _ operation: SecureStorageError.Operation, _ key: String
  ) throws(SecureStorageError) {
    try makeFolder(operation, key)
    let temporary = file + ".\(getpid()).tmp"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw failure(operation, key, "cannot create \(temporary)") }
    let bytes = SecretsFileFormat.encode(secrets)
    var written = 0
    var ok = fchmod(descriptor, 0o600) == 0
    while ok, written < bytes.count {
      let count = bytes.withUnsafeBytes {
        write(descriptor, $0.baseAddress! + written, $0.count - written)
      }
      if count < 0, errno == EINTR { continue }
      if count <= 0 { ok = false } else { written += count }
    }
    if ok { ok = fsync(descriptor) == 0 }
    let writeFailure = ok ? nil : failure(operation, key, "cannot write \(temporary)")
    close(descriptor)
    if let writeFailure {
      unlink(temporary)
      throw writeFailure
    }
    guard rename(temporary, file) == 0 else {
      let renameFailure = failure(operation, key, "cannot rename \(temporary) to \(file)")
      unlink(temporary)
      throw renameFailure
    }
  }

  /// Creates the folder (and its parents) if missing, and makes it owner-only.
  private func makeFolder(
    _ operation: SecureStorageError.Operation, _ key: String
  ) throws(SecureStorageError) {
    var path = ""
    for component in folder.split(separator: "/", omittingEmptySubsequences: true) {
      path += "/" + component
      if mkdir(path, 0o700) != 0, errno != EEXIST {
        throw failure(operation, key, "cannot create the folder \(path)")
      }
    }
    var status = stat()
    guard stat(folder, &status) == 0 else {
      throw failure(operation, key, "cannot read the folder \(folder)")
    }
    if UInt32(status.st_mode) & 0o077 != 0, chmod(folder, 0o700) != 0 {
      throw failure(operation, key, "cannot make the folder \(folder) owner-only")
    }
  }
}

/// `read(2)`, named apart from `FileSecureStorage.read(_:)`.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
  read(descriptor, buffer.baseAddress, buffer.count)
}

/// The secrets file: one line per secret, `hex(key) hex(secret)`, sorted by key.
enum SecretsFileFormat {
  static func encode(_ secrets: [String: [UInt8]]) -> [UInt8] {
    var bytes: [UInt8] = []
    for key in secrets.keys.sorted() {
      hex(Array(key.utf8), into: &bytes)
      bytes.append(UInt8(ascii: " "))
      hex(secrets[key]!, into: &bytes)
      bytes.append(UInt8(ascii: "\n"))
    }
    return bytes
  }

  static func decode(_ bytes: [UInt8]) -> [String: [UInt8]]? {
    var secrets: [String: [UInt8]] = [:]
    for line in bytes.split(separator: UInt8(ascii: "\n")) {
      let parts = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
      guard parts.count == 2, let key = unhex(parts[0]), let value = unhex(parts[1]),
        let name = String(validating: key, as: UTF8.self)
      else { return nil }
      secrets[name] = value
    }
    return secrets
  }

  private static let digits = Array("0123456789abcdef".utf8)

  private static func hex(_ bytes: [UInt8], into output: inout [UInt8]) {
    for byte in bytes {
      output.append(digits[Int(byte >> 4)])
      output.append(digits[Int(byte & 0xF)])
    }
  }

  private static func unhex(_ text: ArraySlice<UInt8>) -> [UInt8]? {
    guard text.count.isMultiple(of: 2) else { return nil }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.count / 2)
    var index = text.startIndex
    while index < text.endIndex {
      guard let high = value(text[index]), let low = value(text[index + 1]) else { return nil }
      bytes.append(high << 4 | low)
      index += 2
    }
    return bytes
  }

  private static func value(_ digit: UInt8) -> UInt8? {
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
    default: nil
    }
  }
}
