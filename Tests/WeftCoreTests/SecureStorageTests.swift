import Foundation
import Testing
import WeftCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The secure stores: the same behaviour from each (set, replace, read, delete), the file
/// store's owner-only folder and file whatever the umask, and the capability around them.
@Suite(.serialized) struct SecureStorageTests {
  static func mode(_ path: String) -> UInt32? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return UInt32(status.st_mode) & 0o777
  }

  static func temporaryFolder() -> String {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("weft-secrets-\(UUID().uuidString)").path
  }

  static func behavesAsAStore(_ store: any SecureStorage) async throws {
    #expect(try await store.read("token") == nil)
    try await store.setString("first", for: "token")
    try await store.set([0, 255, 10, 32], for: "binary")
    #expect(try await store.readString("token") == "first")
    try await store.setString("second", for: "token")
    #expect(try await store.readString("token") == "second")
    #expect(try await store.read("binary") == [0, 255, 10, 32])
    try await store.delete("token")
    try await store.delete("token")  // deleting what is not there is no error
    #expect(try await store.read("token") == nil)
    #expect(try await store.read("binary") == [0, 255, 10, 32])
  }

  @Test func theInMemoryStoreSetsReadsAndDeletes() async throws {
    let store = InMemorySecureStorage()
    try await Self.behavesAsAStore(store)
    #expect(store.keys == ["binary"])
  }

  @Test func theFileStoreSetsReadsAndDeletesAcrossInstances() async throws {
    let root = Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: root) }  // try?: may not exist
    let folder = root + "/app/secure-storage"
    try await Self.behavesAsAStore(FileSecureStorage(folder: folder))
    // Another instance (another launch) reads what the first wrote.
    #expect(try await FileSecureStorage(folder: folder).read("binary") == [0, 255, 10, 32])
    try await FileSecureStorage(folder: folder).delete("binary")
    #expect(!FileManager.default.fileExists(atPath: folder + "/secrets"))
  }

  @Test func theFileStoreIsOwnerOnlyUnderUmask022() async throws {
    let previous = umask(0o022)
    defer { umask(previous) }
    let root = Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: root) }  // try?: may not exist
    let store = FileSecureStorage(folder: root + "/app/secure-storage")
    try await store.setString("token-value", for: "token")
    #expect(Self.mode(store.folder) == 0o700)
    #expect(Self.mode(store.file) == 0o600)
    // A folder found more open is made owner-only at the next write.
    chmod(store.folder, 0o755)
    try await store.setString("token-value-2", for: "token")
    #expect(Self.mode(store.folder) == 0o700)
    #expect(Self.mode(store.file) == 0o600)
    let contents = try String(contentsOfFile: store.file, encoding: .utf8)
    #expect(!contents.contains(store.folder))  // nothing but the hex lines
    #expect(try FileManager.default.contentsOfDirectory(atPath: store.folder) == ["secrets"])
  }

  @Test func aDamagedFileIsATypedErrorNamingIt() async throws {
    let root = Self.temporaryFolder()
    defer { try? FileManager.default.removeItem(atPath: root) }  // try?: may not exist
    let store = FileSecureStorage(folder: root)
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try Data("not hex\n".utf8).write(to: URL(fileURLWithPath: store.file))
    await #expect(
      throws: SecureStorageError(
        operation: .read, key: "token",
        detail: "\(store.file) is not a secrets file written by FileSecureStorage; move it "
          + "away to start empty")
    ) { try await store.read("token") }
  }

  @Test func theUserDataStoreFollowsXDGDataHome() {
    let saved = getenv("XDG_DATA_HOME").map { String(cString: $0) }
    defer {
      if let saved { setenv("XDG_DATA_HOME", saved, 1) } else { unsetenv("XDG_DATA_HOME") }
    }
    setenv("XDG_DATA_HOME", "/data/home", 1)
    #expect(
      FileSecureStorage.userData(app: "weft.test").folder == "/data/home/weft.test/secure-storage")
    setenv("XDG_DATA_HOME", "relative/ignored", 1)
    let home = String(cString: getenv("HOME"))
    #expect(FileSecureStorage.dataDirectory().hasSuffix("/.local/share"))
    #expect(
      FileSecureStorage.dataDirectory().hasPrefix(
        home.hasSuffix("/") ? String(home.dropLast()) : home))
  }

  @Test func theCapabilityRunsRequestsThroughTheManager() async throws {
    let capabilities = CapabilityManager()
    let store = InMemorySecureStorage()
    await capabilities.register(SecureStorageCapability(store))
    #expect(await capabilities.validate(SecureStorageCapability.self))
    _ = try await capabilities.execute(
      SecureStorageCapability.self, with: .set("token", Array("abc".utf8)))
    #expect(
      try await capabilities.execute(SecureStorageCapability.self, with: .read("token"))
        == Array("abc".utf8))
    _ = try await capabilities.execute(SecureStorageCapability.self, with: .delete("token"))
    #expect(store.keys.isEmpty)
    await capabilities.setAvailability(false, for: SecureStorageCapability.self)
    await #expect(throws: CapabilityError.unavailable(capability: "SecureStorageCapability")) {
      try await capabilities.execute(SecureStorageCapability.self, with: .read("token"))
    }
  }

  @Test func anErrorNamesTheKeyNeverTheSecret() {
    let error = SecureStorageError(operation: .set, key: "auth.token", detail: "Permission denied")
    #expect(
      error.description
        == "secure storage could not set the secret 'auth.token': Permission denied")
  }
}
