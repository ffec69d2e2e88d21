import Foundation
import HealthDomain
import WeftCore
import WeftNetworking
import WeftPersistence

/// The realtime connection as the app shows it.
///
/// - Note: Isolation: a `Sendable` value.
/// - Complexity: O(1) to make and copy.
public struct RealtimeState: Sendable, Equatable {
  /// The connection's state.
  public var connection: ConnectionState = .disconnected
  /// Insights received since launch.
  public var receivedInsights = 0
  /// The title of the last insight received.
  public var lastInsightTitle: String?
  /// Why the last insight received could not be stored on the device (it is shown, but the
  /// dashboard's local data misses it until the next load from the server); `nil` when it
  /// was stored.
  public var lastError: String?

  /// The launch state.
  ///
  /// - Complexity: O(1).
  public init() {}

  /// Every connection state's `name`.
  public static let names = ["disconnected", "connecting", "connected", "reconnecting", "failed"]

  /// The connection state's name: `disconnected`, `connecting`, `connected`,
  /// `reconnecting` or `failed`.
  public var name: String {
    switch connection {
    case .disconnected: "disconnected"
    case .connecting: "connecting"
    case .connected: "connected"
    case .reconnecting: "reconnecting"
    case .failed: "failed"
    }
  }
}

/// The client owning `RealtimeState`.
///
/// - Note: Isolation: an actor; reads are synchronous from any isolation.
/// - Complexity: each method is one commit: O(s + k) fan-out.
public actor RealtimeClient: Client {
  /// The cell holding the state.
  public nonisolated let cell: StateCell<RealtimeState>

  /// Makes the client.
  ///
  /// - Complexity: O(1).
  public init(monitor: PerformanceMonitor = .shared) {
    cell = StateCell(RealtimeState(), name: "Realtime", monitor: monitor)
  }

  func setConnection(_ state: ConnectionState) {
    update { if $0.connection != state { $0.connection = state } }
  }

  func received(_ insight: Insight, storeError: String?) {
    update {
      $0.receivedInsights += 1
      $0.lastInsightTitle = insight.title
      if $0.lastError != storeError { $0.lastError = storeError }
    }
  }
}

/// Keeps the realtime connection and feeds the insights it receives into the database,
/// where the dashboard observes them.
///
/// Messages are `HealthAPI.InsightDTO` JSON. The connection's states and messages are
/// consumed by two long-lived tasks that update `RealtimeClient`.
///
/// - Complexity: O(1) per state change; one database write per insight.
/// - Note: Isolation: `Sendable`; the connection is an actor; consumers run in their tasks.
/// - Note: Allocations: two tasks for the service's lifetime; one record per insight.
final class RealtimeService: Sendable {
  let connection: RealtimeConnection
  let client: RealtimeClient
  private let tasks = Locked<[Task<Void, Never>]>([])

  init(connection: RealtimeConnection, client: RealtimeClient, database: Database) {
    self.connection = connection
    self.client = client
    let states = connection.states
    let messages = connection.messages
    let stateTask = Task {
      for await state in states {
        await client.setConnection(state)
      }
    }
    let messageTask = Task {
      for await message in messages {
        if let insight = Self.insight(from: message) {
          var storeError: String?
          do {
            try await database.save(insight)
          } catch {
            storeError = "the insight \"\(insight.title)\" could not be stored: \(error)"
          }
          await client.received(insight, storeError: storeError)
        }
      }
    }
    tasks.withLock { $0 = [stateTask, messageTask] }
  }

  /// Connects, unless connected or already on the way.
  ///
  /// - Throws: `AppActionError.realtime` when the connection is not disconnected or failed.
  func connect() async throws(AppActionError) {
    let state = await connection.state
    switch state {
    case .disconnected, .failed: break
    case .connecting, .connected, .reconnecting:
      throw .realtime("the realtime connection is already \(state): disconnect it first")
    }
    await connection.connect()
  }

  /// Connects if disconnected or failed; does nothing otherwise.
  func connectIfNeeded() async {
    // `connect()` throws only when already connecting, connected or reconnecting.
    try? await connect()  // try?: exactly the case in which nothing is needed
  }

  /// Disconnects, unless already disconnected.
  ///
  /// - Throws: `AppActionError.realtime` when already disconnected.
  func disconnect() async throws(AppActionError) {
    let state = await connection.state
    guard state != .disconnected else {
      throw .realtime("the realtime connection is already disconnected")
    }
    await connection.disconnect()
  }

  /// Disconnects and stops the consumers (teardown).
  func shutDown() async {
    await connection.disconnect()
    let tasks = self.tasks.withLock { $0 }
    for task in tasks { task.cancel() }
    for task in tasks { await task.value }
  }

  static func insight(from message: RealtimeMessage) -> Insight? {
    let data: Data
    switch message {
    case .text(let text): data = Data(text.utf8)
    case .data(let bytes): data = bytes
    }
    // The server keeps every insight for the next dashboard load.
    let decoder = HealthAPI.coding.makeDecoder()
    // A message that is not an insight (another kind, or garbled) is not for us.
    let insight = try? decoder.decode(HealthAPI.InsightDTO.self, from: data)  // try?: above
    return insight?.record
  }
}
