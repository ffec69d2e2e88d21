import Foundation
import HealthDomain
import WeftCore
import WeftNetworking

/// The in-process backend of the simulated configuration: accounts, tokens, metrics storage
/// that honours `Idempotency-Key`, and insights — serving every `HealthAPI` route on a
/// WeftNetworking `SimulatedTransport`.
///
/// Seeded accounts (see `Account`):
/// - `ada@example.com` / `correct-horse`: verified, with a week of metrics and three insights;
/// - `grace@example.com` / `correct-horse`: not verified yet (sign-in answers 403
///   `email_not_verified` until `verify(email:)`).
/// Any other email or a wrong password answers 401 `invalid_credentials`.
///
/// A replayed `PUT`/`DELETE` (same user, same `Idempotency-Key`) gets the stored response and
/// changes nothing: `appliedWrites` counts each change exactly once, `replayedWrites` the
/// replays.
///
/// # Performance
/// One lock per request; metric queries scan the user's metrics (hundreds in a flow).
///
/// - Complexity: O(m) per `GET /metrics`, m = the user's metrics; O(1) otherwise.
/// - Note: Isolation: thread-safe (one lock); handlers run in the request's task.
/// - Note: Allocations: the decoded body and the encoded response per request.
public final class SimulatedHealthServer: Sendable {
  /// A seeded account.
  ///
  /// - Complexity: O(1) to make and copy.
  /// - Note: Isolation: a `Sendable` value; any isolation.
  public struct Account: Sendable, Hashable {
    /// The account's user id.
    public var id: String
    /// The email it signs in with.
    public var email: String
    /// Its password.
    public var password: String
    /// Whether its email is verified.
    public var verified: Bool

    /// The verified account with seeded data.
    public static let ada = Account(
      id: "user-ada", email: "ada@example.com", password: "correct-horse", verified: true)
    /// The account whose email is not verified.
    public static let grace = Account(
      id: "user-grace", email: "grace@example.com", password: "correct-horse", verified: false)
  }

  struct Token {
    var userID: String
    var expiresAt: Date
    var revoked = false
  }

  struct State {
    var accounts: [String: Account] = [:]
    var tokens: [String: Token] = [:]
    var issued = 0
    var metrics: [String: [UUID: HealthAPI.MetricDTO]] = [:]
    var stored: [String: HTTPResponse] = [:]
    var appliedWrites = 0
    var replayedWrites = 0
    var duplicates = 0
    var insights: [HealthAPI.InsightDTO] = []
  }

  /// How long an issued token is accepted.
  public let sessionLifetime: Duration
  let now: @Sendable () -> Date
  let ids: SeededIDs
  let state: BackendStore

  /// Makes the server with its seeded accounts and data.
  ///
  /// - Parameters:
  ///   - now: the server's clock (the simulation's date).
  ///   - ids: where new insight ids come from.
  ///   - sessionLifetime: how long tokens live.
  ///
  /// - Complexity: O(1) plus the seeded records (a dozen).
  ///   - file: where the backend keeps a copy of its state after every change, and what
  ///     it starts from when the file exists (`weft-sim --state-dir`); `nil` keeps it in
  ///     memory only.
  ///   - deliveries: the MainActor delivery queue of the observable counts (`records`): the
  ///     app's, so that a view of the backend is drained with the app's own views.
  /// - Note: Isolation: any.
  public init(
    now: @escaping @Sendable () -> Date, ids: SeededIDs, sessionLifetime: Duration = .seconds(3600),
    file: URL? = nil, deliveries: MainActorDeliveries = .shared
  ) {
    self.now = now
    self.ids = ids
    self.sessionLifetime = sessionLifetime
    let reference = now()
    var seeded = State()
    for account in [Account.ada, .grace] { seeded.accounts[account.email] = account }
    seeded.metrics[Account.ada.id] = Dictionary(
      uniqueKeysWithValues: Self.seedMetrics(relativeTo: reference).map { ($0.id, $0) })
    seeded.insights = Self.seedInsights(relativeTo: reference)
    state = BackendStore(seeded, file: file, deliveries: deliveries)
  }

  /// The backend's observable counts: records, duplicate deliveries, writes and replays.
  public var records: StateCell<BackendRecords> { state.records }

  /// Registers every `HealthAPI` route on `transport`.
  ///
  /// - Complexity: O(1).
  public func install(on transport: SimulatedTransport) {
    transport.route(.post, HealthAPI.Path.login) { [self] in login($0) }
    transport.route(.post, HealthAPI.Path.refresh) { [self] in refresh($0) }
    transport.route(.post, HealthAPI.Path.logout) { [self] in logout($0) }
    transport.route(.get, HealthAPI.Path.metrics) { [self] in metrics($0) }
    transport.route(.put, HealthAPI.Path.metric) { [self] in upsert($0) }
    transport.route(.delete, HealthAPI.Path.metric) { [self] in delete($0) }
    transport.route(.get, HealthAPI.Path.insights) { [self] in insights($0) }
  }

  // MARK: Controls

  /// Marks the account with `email` verified (the user opened the link).
  ///
  /// - Returns: whether such an account exists.
  /// - Complexity: O(1).
  @discardableResult
  public func verify(email: String) -> Bool {
    state.withLock { state in
      guard state.accounts[email.lowercased()] != nil else { return false }
      state.accounts[email.lowercased()]?.verified = true
      return true
    }
  }

  /// Makes `token` expire now (the server answers 401 to it from now on).
  ///
  /// - Complexity: O(1).
  public func expire(token: String) {
    let date = now()
    state.withLock { $0.tokens[token]?.expiresAt = date }
  }

  /// Revokes every token of `userID`.
  ///
  /// - Complexity: O(1).
  public func revokeTokens(ofUser userID: String) {
    state.withLock { state in
      for (token, issued) in state.tokens where issued.userID == userID {
        state.tokens[token]?.revoked = true
      }
    }
  }

  /// Adds an insight for every user, dated now, and returns it (what a realtime push
  /// announces).
  ///
  /// - Complexity: O(1).
  public func addInsight(
    title: String, body: String, priority: Insight.Priority = .medium
  ) -> HealthAPI.InsightDTO {
    let insight = HealthAPI.InsightDTO(
      Insight(id: ids.next(), title: title, body: body, date: now(), priority: priority))
    state.withLock { $0.insights.append(insight) }
    return insight
  }

  // MARK: Inspection

  /// Writes applied (each idempotency key once).
  public var appliedWrites: Int { state.withLock { $0.appliedWrites } }

  /// Writes answered from the idempotency store without applying them again.
  public var replayedWrites: Int { state.withLock { $0.replayedWrites } }

  /// The metrics the server holds for the account with `email`, by date.
  ///
  /// - Complexity: O(1).
  public func metrics(of email: String) -> [HealthAPI.MetricDTO] {
    state.withLock { state in
      guard let account = state.accounts[email.lowercased()] else { return [] }
      return (state.metrics[account.id] ?? [:]).values.sorted {
        ($0.date, $0.id.uuidString) < ($1.date, $1.id.uuidString)
      }
    }
  }

  /// Every insight the server holds.
  public var allInsights: [HealthAPI.InsightDTO] { state.withLock { $0.insights } }
}

// MARK: Seeds

extension SimulatedHealthServer {
  /// The metrics seeded for Ada, relative to the start date: heart rate 62 (1 h ago), 70
  /// (26 h), 78 (74 h) and 90 (20 days); steps 8000 (2 h) and 4000 (50 h); sleep 7.5 h (6 h
  /// ago) and 6.5 h (30 h). A week's summary: average heart rate 70, 12 000 steps, 14 h sleep.
  ///
  /// - Complexity: O(1).
  public static func seedMetrics(relativeTo reference: Date) -> [HealthAPI.MetricDTO] {
    let seeds: [(MetricType, Double, Double)] = [
      (.heartRate, 62, 1), (.heartRate, 70, 26), (.heartRate, 78, 74), (.heartRate, 90, 480),
      (.steps, 8000, 2), (.steps, 4000, 50), (.sleepDuration, 7.5, 6), (.sleepDuration, 6.5, 30),
    ]
    return seeds.enumerated().map { index, seed in
      let date = reference.addingTimeInterval(-seed.2 * 3600)
      return HealthAPI.MetricDTO(
        HealthMetric(
          id: seededID(1, index), type: seed.0, value: seed.1, date: date, source: "Seed",
          createdAt: date))
    }
  }

  /// The insights seeded for everyone: 3 h, 27 h and 5 days old.
  ///
  /// - Complexity: O(1).
  public static func seedInsights(relativeTo reference: Date) -> [HealthAPI.InsightDTO] {
    let seeds: [(String, String, Double, Insight.Priority)] = [
      ("Resting heart rate is steady", "Your resting heart rate stayed within 2 bpm.", 3, .low),
      ("Short sleep", "You slept under 7 hours last night.", 27, .medium),
      ("Step goal reached", "You passed 8,000 steps three days in a row.", 120, .high),
    ]
    return seeds.enumerated().map { index, seed in
      HealthAPI.InsightDTO(
        Insight(
          id: seededID(2, index), title: seed.0, body: seed.1,
          date: reference.addingTimeInterval(-seed.2 * 3600), priority: seed.3))
    }
  }

  static func seededID(_ group: Int, _ index: Int) -> UUID {
    UUID(uuidString: String(format: "00000000-0000-4000-8000-%04d%08d", group, index))!
  }
}
