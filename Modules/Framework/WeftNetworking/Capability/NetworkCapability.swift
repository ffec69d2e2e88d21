import WeftCore

/// Network access as a WeftCore `Capability`: it sends a raw ``HTTPRequest`` through a
/// ``Transport`` and reports whether the network is usable, so clients can ask before they
/// try and degrade (queue in the outbox, show cached data) when it is not.
///
/// ```swift
/// let availability = NetworkAvailability()
/// let network = NetworkCapability(transport: URLSessionTransport(), availability: availability)
/// if network.isAvailable { … } else { /* offline mode */ }
/// let response = try await network.execute(request)
/// ```
///
/// > Note: When WeftCore's `CapabilityManager` is in use, register this capability there and
/// > mirror ``NetworkAvailability`` into `setAvailability(_:for:)` so `validate` answers
/// > from the same source.
///
/// - Complexity: `isAvailable` is one atomic load; `execute` is one transport call.
/// - Note: Isolation: `Sendable`; any isolation.
/// - Note: Allocations: none besides the transport's.
public struct NetworkCapability: Capability {
  /// A raw request.
  public typealias Request = HTTPRequest
  /// The raw response, any status.
  public typealias Response = HTTPResponse

  /// What sends requests.
  public let transport: any Transport
  /// Whether the network is usable.
  public let availability: NetworkAvailability

  /// Makes the capability.
  public init(transport: any Transport, availability: NetworkAvailability = NetworkAvailability()) {
    self.transport = transport
    self.availability = availability
  }

  /// The capability's name in capability reports.
  public static var name: String { "network" }

  /// Whether the network is usable now.
  public var isAvailable: Bool { availability.isAvailable }

  /// Sends `request`, or fails at once when the network is unavailable.
  ///
  /// - Throws: `CapabilityError.unavailable` when offline; ``TransportError`` from the
  ///   transport.
  public func execute(_ request: HTTPRequest) async throws -> HTTPResponse {
    guard availability.isAvailable else {
      throw CapabilityError.unavailable(capability: Self.name)
    }
    return try await transport.send(request)
  }
}

extension NetworkCapability {
  /// Registers this capability in `manager` and keeps the manager's availability in step
  /// with ``availability`` until the returned task is cancelled.
  ///
  /// - Complexity: O(1) per availability change.
  /// - Note: Isolation: the mirror runs in its own task and calls the manager's actor.
  /// - Note: Allocations: one task and one change stream.
  @discardableResult
  public func register(in manager: CapabilityManager) async -> Task<Void, Never> {
    let changes = availability.changes()
    await manager.register(self, available: availability.isAvailable)
    return Task {
      for await available in changes {
        await manager.setAvailability(available, for: NetworkCapability.self)
      }
    }
  }
}
