import Foundation
import Testing
import WeftPersistence

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every file a database creates is owner-only whatever the umask; an existing file that is
/// more open is reported, and tightened on request.
///
/// The suite sets the process umask to 022 (the common default, under which SQLite alone
/// makes 0644 files) for each test, and is serialized so its tests do not restore each
/// other's umask.
@Suite(.serialized) struct FileModeTests {
  /// The permission bits of `path`, or nil when it does not exist.
  static func mode(_ path: String) -> UInt32? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return UInt32(status.st_mode) & 0o777
  }

  /// Runs `body` with umask 022, restoring the previous umask after.
  static func underUmask022<T>(_ body: () async throws -> T) async rethrows -> T {
    let previous = umask(0o022)
    defer { umask(previous) }
    return try await body()
  }

  @Test func aNewDatabaseAndItsSidecarsAreOwnerOnly() async throws {
    try await Self.underUmask022 {
      try await withFileDatabase { database, folder in
        try await database.save(Metric.sample(1))
        let file = folder.file("test.sqlite")
        #expect(Self.mode(file) == 0o600)
        #expect(Self.mode(file + "-wal") == 0o600)
        #expect(Self.mode(file + "-shm") == 0o600)
        #expect(database.diagnostics.isEmpty)
        // Whatever else is in the folder was made by the database too: all owner-only.
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
          #expect(Self.mode(folder.file(name)) == 0o600, "\(name)")
        }
      }
    }
  }

  @Test func sidecarsSQLiteRecreatesAreOwnerOnly() async throws {
    try await Self.underUmask022 {
      let folder = try TemporaryFolder()
      defer { folder.remove() }
      let file = folder.file("test.sqlite")
      let first = try await Database.open(at: file, migrations: TestSchema.all)
      try await first.save(Metric.sample(1))
      await first.close()
      // Closing the last connection checkpoints and deletes the WAL and the shared memory:
      // the next open creates both again.
      unlink(file + "-wal")
      unlink(file + "-shm")
      let second = try await Database.open(at: file, migrations: TestSchema.all)
      try await second.save(Metric.sample(2))
      #expect(Self.mode(file + "-wal") == 0o600)
      #expect(Self.mode(file + "-shm") == 0o600)
      #expect(try await second.count(Metric.self) == 2)
      await second.close()
    }
  }

  @Test func anotherModeCanBeConfigured() async throws {
    try await Self.underUmask022 {
      var configuration = Database.Configuration()
      configuration.fileMode = 0o640
      try await withFileDatabase(configuration: configuration) { database, folder in
        try await database.save(Metric.sample(1))
        #expect(Self.mode(folder.file("test.sqlite")) == 0o640)
        #expect(Self.mode(folder.file("test.sqlite-wal")) == 0o640)
        #expect(Self.mode(folder.file("test.sqlite-shm")) == 0o640)
      }
    }
  }

  /// A file made before (by SQLite alone under umask 022) is 0644: opening reports it and
  /// leaves it so, unless asked to tighten it.
  @Test func anExistingReadableFileIsReportedAndTightenedOnRequest() async throws {
    try await Self.underUmask022 {
      let folder = try TemporaryFolder()
      defer { folder.remove() }
      let file = folder.file("test.sqlite")
      try await withSQLiteMadeFile(file) {
        let reported = try await Database.open(at: file, migrations: TestSchema.all)
        #expect(
          reported.diagnostics.map(\.kind) == [.permissiveFileMode],
          "\(reported.diagnostics)")
        #expect(reported.diagnostics.first?.path == file)
        #expect(reported.diagnostics.first?.foundMode == 0o644)
        #expect(
          reported.diagnostics.first?.description
            == "\(file) has mode 0o644, more open than the configured 0o600: other users of "
            + "this machine may read it. Set Database.Configuration.tightensExistingFileMode "
            + "to set it to 0o600 at open, or run chmod 600 on it.")
        #expect(Self.mode(file) == 0o644)
        await reported.close()

        var configuration = Database.Configuration()
        configuration.tightensExistingFileMode = true
        let tightened = try await Database.open(
          at: file, migrations: TestSchema.all, configuration: configuration)
        #expect(tightened.diagnostics.map(\.kind) == [.fileModeTightened])
        #expect(Self.mode(file) == 0o600)
        try await tightened.save(Metric.sample(3))
        #expect(Self.mode(file + "-wal") == 0o600)
        await tightened.close()

        let again = try await Database.open(at: file, migrations: TestSchema.all)
        #expect(again.diagnostics.isEmpty)
        #expect(try await again.count(Metric.self) == 2)
        await again.close()
      }
    }
  }

  /// Makes `file` the way SQLite alone does (0644 under umask 022), with a metric in it.
  private func withSQLiteMadeFile(
    _ file: String, _ body: () async throws -> Void
  ) async throws {
    let descriptor = open(file, O_RDWR | O_CREAT | O_EXCL, 0o644)
    try #require(descriptor >= 0)
    close(descriptor)
    let database = try await Database.open(at: file, migrations: TestSchema.all)
    try await database.save(Metric.sample(1))
    await database.close()
    chmod(file, 0o644)
    try #require(Self.mode(file) == 0o644)
    try await body()
  }
}
