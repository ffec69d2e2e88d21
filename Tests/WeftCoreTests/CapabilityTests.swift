import Testing

@testable import WeftCore

struct StorageCapability: Capability {
  let saved = Recorder<String>()
  func execute(_ request: String) async throws -> Bool {
    saved.append(request)
    return true
  }
}

struct NetworkCapability: Capability {
  struct Down: Error, CustomStringConvertible {
    var description: String { "socket closed" }
  }
  let failing: Bool
  func execute(_ request: String) async throws -> String {
    if failing { throw Down() }
    return "uploaded \(request)"
  }
}

/// The Client Implementation Guide's four degradation cases.
enum SyncResult: Equatable {
  case fullSync, offlineQueue, directUpload, memoryOnly
}

actor NotesClient: Client {
  nonisolated let cell = StateCell([String](), name: "NotesClient")
  let capabilities: CapabilityManager

  init(capabilities: CapabilityManager) { self.capabilities = capabilities }

  func save(_ note: String) async -> SyncResult {
    cell.update { $0.append(note) }
    let network = await capabilities.validate(NetworkCapability.self)
    let storage = await capabilities.validate(StorageCapability.self)
    switch (network, storage) {
    case (true, true):
      _ = try? await capabilities.execute(StorageCapability.self, with: note)
      _ = try? await capabilities.execute(NetworkCapability.self, with: note)
      return .fullSync
    case (false, true):
      _ = try? await capabilities.execute(StorageCapability.self, with: "queued:\(note)")
      return .offlineQueue
    case (true, false):
      _ = try? await capabilities.execute(NetworkCapability.self, with: note)
      return .directUpload
    case (false, false):
      return .memoryOnly
    }
  }
}

@Suite("Capabilities")
struct CapabilityTests {
  @Test func validateReflectsRegistrationAndAvailability() async {
    let manager = CapabilityManager()
    #expect(await manager.validate(StorageCapability.self) == false)
    await manager.register(StorageCapability())
    #expect(await manager.validate(StorageCapability.self))
    await manager.setAvailability(false, for: StorageCapability.self)
    #expect(await manager.validate(StorageCapability.self) == false)
    await manager.unregister(StorageCapability.self)
    #expect(manager.state.capabilities.isEmpty)
  }

  @Test func executeReportsTypedErrorsNamingTheCapability() async throws {
    let manager = CapabilityManager()
    await #expect(throws: CapabilityError.notRegistered(capability: "NetworkCapability")) {
      try await manager.execute(NetworkCapability.self, with: "x")
    }
    await manager.register(NetworkCapability(failing: true), available: false)
    await #expect(throws: CapabilityError.unavailable(capability: "NetworkCapability")) {
      try await manager.execute(NetworkCapability.self, with: "x")
    }
    await manager.setAvailability(true, for: NetworkCapability.self)
    await #expect(
      throws: CapabilityError.failed(capability: "NetworkCapability", message: "socket closed")
    ) {
      try await manager.execute(NetworkCapability.self, with: "x")
    }
    await manager.register(NetworkCapability(failing: false))
    let response = try await manager.execute(NetworkCapability.self, with: "note")
    #expect(response == "uploaded note")
  }

  @Test func errorMessagesSayHowToFix() {
    #expect(
      CapabilityError.notRegistered(capability: "Storage").description
        == "capability Storage is not registered: register an implementation with "
        + "CapabilityManager.register(_:) before using it")
    #expect(
      CapabilityError.unavailable(capability: "Network").description
        == "capability Network is unavailable: check validate(_:) first and degrade "
        + "(queue offline, keep in memory)")
  }

  @Test func clientDegradesThroughAllFourCases() async {
    let manager = CapabilityManager()
    let storage = StorageCapability()
    let client = NotesClient(capabilities: manager)
    #expect(await client.save("a") == .memoryOnly)
    await manager.register(storage)
    #expect(await client.save("b") == .offlineQueue)
    await manager.register(NetworkCapability(failing: false))
    #expect(await client.save("c") == .fullSync)
    await manager.setAvailability(false, for: StorageCapability.self)
    #expect(await client.save("d") == .directUpload)
    #expect(storage.saved.values == ["queued:b", "c"])
    #expect(client.state == ["a", "b", "c", "d"])
  }

  @Test func availabilityChangesArePublished() async {
    let manager = CapabilityManager()
    await manager.register(NetworkCapability(failing: false))
    let seen = Recorder<Bool>()
    let token = manager.observeSynchronously(
      StateSelector(id: "network") { $0.isAvailable(NetworkCapability.name) }
    ) { seen.append($0.value) }
    await manager.setAvailability(false, for: NetworkCapability.self)
    await manager.setAvailability(false, for: NetworkCapability.self)  // no change
    await manager.setAvailability(true, for: NetworkCapability.self)
    #expect(seen.values == [false, true])
    token.cancel()
  }
}
