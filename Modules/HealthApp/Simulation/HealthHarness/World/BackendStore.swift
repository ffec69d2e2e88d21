import Foundation
import HealthDomain
import WeftCore
import WeftNetworking

/// What the simulated backend holds, as a flow observes it: `backend.records`,
/// `backend.duplicates`, `backend.writes`, `backend.replays`.
///
/// - Note: Isolation: a `Sendable` value.
public struct BackendRecords: Sendable, Equatable {
  /// Metric records stored, over every account.
  public var records = 0
  /// Writes that arrived again for a record already exactly so (the same metric stored with
  /// the same content, or a delete of a record already gone) and were applied again: a
  /// delivery that was not exactly-once. The app's idempotency keys keep this at 0.
  public var duplicates = 0
  /// Writes applied.
  public var writes = 0
  /// Writes answered from the idempotency store without applying them again.
  public var replays = 0
}

/// The backend's state behind one lock, with its observable counts in a `StateCell` and,
/// when given a file, a copy on disk after every change (`--state-dir`), so a second
/// process finds the backend as the first left it.
///
/// - Complexity: `withLock` O(1) plus the body; O(r) more when persisting, r = records.
/// - Note: Isolation: thread-safe; commits to `records` happen inside the lock, so they are
///   serialized (StateCell requires commits from one isolation domain at a time).
final class BackendStore: Sendable {
  private let state: Locked<SimulatedHealthServer.State>
  /// The observable counts. Reports to its own monitor: the backend's commits are not the
  /// app's, and must not move the app's counters; but delivers through the app's queue
  /// (`deliveries`), so views of it are drained, paused and counted with the app's.
  let records: StateCell<BackendRecords>
  private let file: URL?

  init(
    _ initial: SimulatedHealthServer.State, file: URL?, deliveries: MainActorDeliveries = .shared
  ) {
    var initial = initial
    if let file, let saved = Self.load(file) { initial = saved }
    state = Locked(initial)
    records = StateCell(
      Self.counts(initial), name: "backend",
      monitor: PerformanceMonitor(enabled: false, deliveries: deliveries))
    self.file = file
  }

  /// Runs `body` on the state under the lock, then updates the counts and the file.
  func withLock<R>(_ body: (inout SimulatedHealthServer.State) -> R) -> R {
    state.withLock { state in
      let result = body(&state)
      let counts = Self.counts(state)
      if counts != records.state { records.commit(counts) }
      if let file { Self.save(state, to: file) }
      return result
    }
  }

  static func counts(_ state: SimulatedHealthServer.State) -> BackendRecords {
    BackendRecords(
      records: state.metrics.values.reduce(0) { $0 + $1.count }, duplicates: state.duplicates,
      writes: state.appliedWrites, replays: state.replayedWrites)
  }

  // MARK: On disk

  private static func save(_ state: SimulatedHealthServer.State, to file: URL) {
    do {
      let data = try JSONEncoder().encode(SavedState(state))
      try data.write(to: file, options: .atomic)
    } catch {
      // The backend is a simulation aid: losing its copy on disk must be loud, not silent.
      FileHandle.standardError.write(
        Data("weft-sim: cannot save the simulated backend to \(file.path): \(error)\n".utf8))
    }
  }

  private static func load(_ file: URL) -> SimulatedHealthServer.State? {
    guard FileManager.default.fileExists(atPath: file.path) else { return nil }
    do {
      return try JSONDecoder().decode(SavedState.self, from: Data(contentsOf: file)).state
    } catch {
      FileHandle.standardError.write(
        Data(
          "weft-sim: cannot read the simulated backend \(file.path): \(error); starting fresh\n"
            .utf8))
      return nil
    }
  }
}

/// The backend's state as stored on disk.
struct SavedState: Codable {
  struct Account: Codable {
    var id, email, password: String
    var verified: Bool
  }
  struct Token: Codable {
    var userID: String
    var expiresAt: Date
    var revoked: Bool
  }
  struct Response: Codable {
    var status: Int
    var headers: [[String]]
    var body: Data
  }

  var accounts: [String: Account]
  var tokens: [String: Token]
  var issued: Int
  var metrics: [String: [HealthAPI.MetricDTO]]
  var stored: [String: Response]
  var appliedWrites, replayedWrites, duplicates: Int
  var insights: [HealthAPI.InsightDTO]

  init(_ state: SimulatedHealthServer.State) {
    accounts = state.accounts.mapValues {
      Account(id: $0.id, email: $0.email, password: $0.password, verified: $0.verified)
    }
    tokens = state.tokens.mapValues {
      Token(userID: $0.userID, expiresAt: $0.expiresAt, revoked: $0.revoked)
    }
    issued = state.issued
    metrics = state.metrics.mapValues { $0.values.sorted { $0.id.uuidString < $1.id.uuidString } }
    stored = state.stored.mapValues {
      Response(status: $0.status, headers: $0.headers.map { [$0.name, $0.value] }, body: $0.body)
    }
    appliedWrites = state.appliedWrites
    replayedWrites = state.replayedWrites
    duplicates = state.duplicates
    insights = state.insights
  }

  var state: SimulatedHealthServer.State {
    var state = SimulatedHealthServer.State()
    state.accounts = accounts.mapValues {
      .init(id: $0.id, email: $0.email, password: $0.password, verified: $0.verified)
    }
    state.tokens = tokens.mapValues {
      .init(userID: $0.userID, expiresAt: $0.expiresAt, revoked: $0.revoked)
    }
    state.issued = issued
    state.metrics = metrics.mapValues { Dictionary(uniqueKeysWithValues: $0.map { ($0.id, $0) }) }
    state.stored = stored.mapValues { saved in
      var headers = HTTPHeaders()
      for field in saved.headers where field.count == 2 { headers[field[0]] = field[1] }
      return HTTPResponse(status: saved.status, headers: headers, body: saved.body)
    }
    state.appliedWrites = appliedWrites
    state.replayedWrites = replayedWrites
    state.duplicates = duplicates
    state.insights = insights
    return state
  }
}
