#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The database file's permissions, set before SQLite opens it.
///
/// SQLite creates a new database file with mode 0644 minus the umask, and gives each sidecar
/// it creates later (`-wal`, `-shm`, `-journal`) exactly the main file's permission bits (its
/// unix VFS copies them with `fchmod`, whatever the umask). So creating the main file here,
/// empty, with the configured mode — `fchmod` after `open`, so the umask cannot narrow or
/// widen it — makes every file SQLite creates beside it owner-only too, now and whenever a
/// sidecar is deleted and recreated. An empty file is a new database to SQLite.
///
/// An existing file (and sidecar) that grants more than the configured mode is reported, and
/// with `tightensExistingFileMode` set to the configured mode.
///
/// - Complexity: O(1): an `open` or a `stat` of the file and its three sidecars.
/// - Note: Isolation: runs inside `Database.open`, before the writer connection.
enum DatabaseFiles {
  /// The suffixes SQLite names its sidecars with.
  static let sidecarSuffixes = ["-wal", "-shm", "-journal"]

  /// Creates `path` with `mode` if it does not exist; otherwise checks its mode and its
  /// sidecars'. Failures to create are left to SQLite, which reports them with its own
  /// typed errors (a missing folder, a read-only location).
  static func prepare(
    path: String, mode: UInt32, tighten: Bool
  ) -> [DatabaseDiagnostic] {
    // SQLite's names for a private database: no file of that name is involved.
    guard !path.isEmpty, path != ":memory:" else { return [] }
    let wanted = mode & 0o777
    let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(wanted))
    if descriptor >= 0 {
      _ = fchmod(descriptor, mode_t(wanted))
      close(descriptor)
      return []
    }
    guard errno == EEXIST else { return [] }
    return ([path] + sidecarSuffixes.map { path + $0 }).compactMap { file in
      check(file, wanted: wanted, tighten: tighten)
    }
  }

  /// A diagnostic for `file` when it exists and grants bits `wanted` does not.
  private static func check(
    _ file: String, wanted: UInt32, tighten: Bool
  ) -> DatabaseDiagnostic? {
    var status = stat()
    guard stat(file, &status) == 0 else { return nil }
    let found = UInt32(status.st_mode) & 0o777
    guard found & ~wanted != 0 else { return nil }
    guard tighten else {
      return DatabaseDiagnostic(
        kind: .permissiveFileMode, path: file, foundMode: found, configuredMode: wanted)
    }
    if chmod(file, mode_t(wanted)) == 0 {
      return DatabaseDiagnostic(
        kind: .fileModeTightened, path: file, foundMode: found, configuredMode: wanted)
    }
    return DatabaseDiagnostic(
      kind: .fileModeNotTightened, path: file, foundMode: found, configuredMode: wanted,
      detail: String(cString: strerror(errno)))
  }
}
