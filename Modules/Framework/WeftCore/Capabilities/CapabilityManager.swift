/// Which capabilities are registered and which of them are available now.
public struct CapabilityAvailability: Sendable, Equatable {
  /// Registered capability names mapped to whether each is available.
  public var capabilities: [String: Bool] = [:]

  /// Makes an empty availability table.
  public init() {}

  /// Whether `name` is registered and available.
  public func isAvailable(_ name: String) -> Bool { capabilities[name] ?? false }
}

/// Registers typed capability implementations, answers `validate`, runs `execute`, and
/// publishes availability changes through the same fan-out as client state.
///
/// ```swift
/// let capabilities = CapabilityManager()
/// await capabilities.register(NetworkCapability(), available: false)   // offline
/// let sub = capabilities.observeOnMainActor(
///   StateSelector(id: "network") { $0.isAvailable(NetworkCapability.name) }
/// ) { banner.isHidden = $0.value }
/// await capabilities.setAvailability(true, for: NetworkCapability.self) // back online
/// ```
///
/// - Complexity: `validate` is O(1) expected; `execute` adds one dictionary lookup to the
///   capability's own work.
/// - Note: Isolation: an actor; availability is readable synchronously through `snapshot`.
public actor CapabilityManager: Client {
  /// Availability, observable like any client state.
  public nonisolated let cell: StateCell<CapabilityAvailability>
  private var implementations: [String: any Sendable] = [:]

  /// Makes a manager with nothing registered.
  public init(monitor: PerformanceMonitor = .shared) {
    cell = StateCell(CapabilityAvailability(), name: "CapabilityManager", monitor: monitor)
  }

  /// Registers `capability` (replacing an earlier implementation of the same type).
  public func register<C: Capability>(_ capability: C, available: Bool = true) {
    implementations[C.name] = capability
    update { $0.capabilities[C.name] = available }
  }

  /// Removes the implementation of `type`; later uses report `.notRegistered`.
  public func unregister<C: Capability>(_ type: C.Type) {
    implementations[C.name] = nil
    update { $0.capabilities[C.name] = nil }
  }

  /// Marks `type` available or not (offline, permission revoked) and publishes the change.
  /// Does nothing if it is not registered.
  public func setAvailability<C: Capability>(_ available: Bool, for type: C.Type) {
    guard implementations[C.name] != nil else { return }
    update { state in
      if state.capabilities[C.name] != available { state.capabilities[C.name] = available }
    }
  }

  /// Whether `type` is registered and available.
  public func validate<C: Capability>(_ type: C.Type) -> Bool {
    cell.state.isAvailable(C.name)
  }

  /// The registered implementation of `type`, if any.
  public func implementation<C: Capability>(of type: C.Type) -> C? {
    implementations[C.name] as? C
  }

  /// Runs the capability's work.
  ///
  /// - Throws: `CapabilityError.notRegistered` or `.unavailable` before any work is done;
  ///   `.failed` wrapping what the implementation threw (cancellation is rethrown as
  ///   `CancellationError`).
  public func execute<C: Capability>(
    _ type: C.Type, with request: C.Request
  ) async throws -> C.Response {
    guard let capability = implementations[C.name] as? C else {
      throw CapabilityError.notRegistered(capability: C.name)
    }
    guard cell.state.isAvailable(C.name) else {
      throw CapabilityError.unavailable(capability: C.name)
    }
    do {
      return try await capability.execute(request)
    } catch is CancellationError {
      throw CancellationError()
    } catch let error as CapabilityError {
      throw error
    } catch {
      throw CapabilityError.failed(capability: C.name, message: "\(error)")
    }
  }
}
