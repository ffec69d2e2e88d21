import Foundation
import Testing

@testable import WeftPersistence

/// The outbox entry's state machine, tested synchronously over every state and event.
@Suite struct DeliveryStateTests {
  static let now = Date(timeIntervalSince1970: 1_000_000)
  static let policy = OutboxPolicy(
    maximumAttempts: 3, initialDelay: .seconds(10), multiplier: 2, maximumDelay: .seconds(25),
    jitter: 0.2, lease: .seconds(60))

  /// One state per phase and timing: due, not yet due, lease live, lease expired, dead.
  static let states: [(name: String, state: DeliveryState)] = [
    ("pending, due", DeliveryState(phase: .pending, attempts: 0, nextAttemptAt: now)),
    ("pending, later", DeliveryState(phase: .pending, attempts: 1, nextAttemptAt: now + 5)),
    (
      "leased, live",
      DeliveryState(phase: .leased(until: now + 30), attempts: 0, nextAttemptAt: now - 1)
    ),
    (
      "leased, expired",
      DeliveryState(phase: .leased(until: now - 1), attempts: 2, nextAttemptAt: now - 100)
    ),
    (
      "dead", DeliveryState(phase: .deadLettered(at: now - 10), attempts: 3, nextAttemptAt: now)
    ),
  ]

  static func forEvery(_ body: (String, DeliveryState) throws -> Void) rethrows {
    for (name, state) in states { try body(name, state) }
  }

  @Test func leaseTakesOnlyDueEntries() {
    Self.forEvery { name, state in
      var state = state
      let due = state.isDue(at: Self.now)
      let action = state.lease(now: Self.now, policy: Self.policy)
      switch name {
      case "pending, due", "leased, expired":
        #expect(due, "\(name)")
        #expect(action == .lease(until: Self.now + 60), "\(name)")
        #expect(state.phase == .leased(until: Self.now + 60), "\(name)")
      default:
        #expect(!due, "\(name)")
        #expect(action == .none, "\(name)")
      }
    }
  }

  @Test func failSchedulesWithBackoffThenDeadLetters() {
    Self.forEvery { name, state in
      var state = state
      let before = state.attempts
      let action = state.fail(now: Self.now, random: 0.5, policy: Self.policy)
      if name == "dead" {
        #expect(action == .none)
        return
      }
      let attempts = before + 1
      if attempts >= Self.policy.maximumAttempts {
        #expect(action == .deadLetter(attempts: attempts, at: Self.now), "\(name)")
        #expect(state.phase == .deadLettered(at: Self.now), "\(name)")
      } else {
        let delay = Double(10 * (1 << (attempts - 1)))
        #expect(action == .schedule(attempts: attempts, at: Self.now + delay), "\(name)")
        #expect(state.phase == .pending, "\(name)")
        #expect(!state.isDue(at: Self.now), "\(name)")
        #expect(state.isDue(at: Self.now + delay), "\(name)")
      }
    }
  }

  @Test func acknowledgeDeletesFromAnyState() {
    Self.forEvery { name, state in
      var state = state
      #expect(state.acknowledge() == .delete, "\(name)")
    }
  }

  @Test func requeueRevivesOnlyDeadLetters() {
    Self.forEvery { name, state in
      var state = state
      let action = state.requeue(now: Self.now)
      if name == "dead" {
        #expect(action == .revive(at: Self.now))
        #expect(state == DeliveryState(phase: .pending, attempts: 0, nextAttemptAt: Self.now))
      } else {
        #expect(action == .none, "\(name)")
      }
    }
  }

  /// Attempts:    1     2     3     4     5     6
  /// Delay (s):  10    20    25    25    25    25    (×2 each time, capped at 25)
  @Test func backoffDoublesUpToTheCapAndJitters() {
    let delays = (1...6).map { Self.policy.delay(afterFailures: $0, random: 0.5) }
    #expect(
      delays == [
        .seconds(10), .seconds(20), .seconds(25), .seconds(25), .seconds(25), .seconds(25),
      ])
    #expect(Self.policy.delay(afterFailures: 1, random: 0) == .seconds(8))
    #expect(Self.policy.delay(afterFailures: 1, random: 1) == .seconds(12))
  }

  /// The dequeue query's SQL agrees with `isDue` on every state.
  @Test func sqlDueConditionMatchesTheMachine() async throws {
    let database = try await Database.inMemory()
    for (name, state) in Self.states {
      let (next, leased, dead): (DatabaseValue, DatabaseValue, DatabaseValue) = {
        switch state.phase {
        case .pending: return (.real(state.nextAttemptAt.timeIntervalSince1970), .null, .null)
        case .leased(let until):
          return (
            .real(state.nextAttemptAt.timeIntervalSince1970), .real(until.timeIntervalSince1970),
            .null
          )
        case .deadLettered(let at):
          return (
            .real(state.nextAttemptAt.timeIntervalSince1970), .null, .real(at.timeIntervalSince1970)
          )
        }
      }()
      let due = try await database.read { db in
        try db.scalar(
          "SELECT \(OutboxSchema.dueCondition) FROM (SELECT ?2 AS next_attempt_at, "
            + "?3 AS leased_until, ?4 AS dead_at) AS o",
          [.real(Self.now.timeIntervalSince1970), next, leased, dead])
      }
      #expect(due == .integer(state.isDue(at: Self.now) ? 1 : 0), "\(name)")
    }
  }
}
