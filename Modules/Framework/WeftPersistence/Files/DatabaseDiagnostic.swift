/// Something `Database.open` noticed about the files it opened and did not treat as an
/// error: today, files whose permissions let other users read them.
///
/// ```swift
/// let database = try await Database.open(at: path, migrations: migrations)
/// for diagnostic in database.diagnostics { logger.warning("\(diagnostic)") }
/// ```
///
/// - Note: Isolation: a `Sendable` value.
public struct DatabaseDiagnostic: Sendable, Hashable, CustomStringConvertible {
  /// What was noticed.
  ///
  /// - Note: Isolation: a `Sendable` value.
  public enum Kind: String, Sendable, Hashable {
    /// The file grants permissions `Configuration.fileMode` does not (another user can read
    /// it, or write it); it was left as it was.
    case permissiveFileMode
    /// The file granted permissions `Configuration.fileMode` does not, and
    /// `Configuration.tightensExistingFileMode` set it to `fileMode`.
    case fileModeTightened
    /// The file granted permissions `Configuration.fileMode` does not, and setting it to
    /// `fileMode` failed (the process does not own the file); `detail` says why.
    case fileModeNotTightened
  }

  /// What was noticed.
  public var kind: Kind
  /// The file it concerns: the database or one of its sidecars (`-wal`, `-shm`, `-journal`).
  public var path: String
  /// The file's permission bits as found (`0o644`).
  public var foundMode: UInt32
  /// The permission bits the configuration asks for (`0o600`).
  public var configuredMode: UInt32
  /// The system's reason, for `fileModeNotTightened`.
  public var detail: String?

  /// Makes a diagnostic.
  ///
  /// - Complexity: O(1).
  public init(
    kind: Kind, path: String, foundMode: UInt32, configuredMode: UInt32, detail: String? = nil
  ) {
    self.kind = kind
    self.path = path
    self.foundMode = foundMode
    self.configuredMode = configuredMode
    self.detail = detail
  }

  public var description: String {
    let found = Self.octal(foundMode)
    let wanted = Self.octal(configuredMode)
    switch kind {
    case .permissiveFileMode:
      return
        "\(path) has mode \(found), more open than the configured \(wanted): other users of "
        + "this machine may read it. Set Database.Configuration.tightensExistingFileMode to "
        + "set it to \(wanted) at open, or run chmod \(wanted.dropFirst(2)) on it."
    case .fileModeTightened:
      return "\(path) had mode \(found), more open than the configured \(wanted); set to \(wanted)."
    case .fileModeNotTightened:
      return
        "\(path) has mode \(found), more open than the configured \(wanted), and could not be "
        + "set to \(wanted): \(detail ?? "unknown error"). Run chmod \(wanted.dropFirst(2)) on it "
        + "as its owner."
    }
  }

  /// `0o644`.
  static func octal(_ mode: UInt32) -> String {
    let digits = String(mode & 0o7777, radix: 8)
    return "0o" + String(repeating: "0", count: max(0, 3 - digits.count)) + digits
  }
}
