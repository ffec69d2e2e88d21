import Testing

@testable import WeftFeedback

/// The start/cancel/restart decisions of the state-driven feedbacks, checked synchronously
/// in every state, for every input, under every policy.
@Suite("LensMachine")
struct LensMachineTests {
  enum Policy: String, CaseIterable {
    case everyState, whenChanged, whileNonNil

    var machine: LensMachine<String> {
      switch self {
      case .everyState: LensMachine(policy: .restartOnEveryState)
      case .whenChanged: LensMachine(policy: .restartWhenChanged(==))
      case .whileNonNil: LensMachine(policy: .keepWhileNonNil)
      }
    }
  }

  /// The states a machine can be in, reached through its API.
  enum Setup: String, CaseIterable {
    /// Never saw a query (or saw only nil).
    case fresh
    /// Latched "p" and its effect #1 runs.
    case running
    /// Latched "p" and its effect #1 completed on its own.
    case ended

    func make(_ policy: Policy) -> LensMachine<String> {
      var machine = policy.machine
      switch self {
      case .fresh: break
      case .running: _ = machine.observe("p")
      case .ended:
        _ = machine.observe("p")
        machine.ended(1)
      }
      return machine
    }
  }

  /// The specification, one row per state and input: what each policy does.
  static let table: [String: [Policy: String]] = [
    "fresh nil": [.everyState: "nothing", .whenChanged: "nothing", .whileNonNil: "nothing"],
    "fresh p": [
      .everyState: "start #1 for p", .whenChanged: "start #1 for p", .whileNonNil: "start #1 for p",
    ],
    "fresh q": [
      .everyState: "start #1 for q", .whenChanged: "start #1 for q", .whileNonNil: "start #1 for q",
    ],
    "running nil": [
      .everyState: "cancel #1", .whenChanged: "cancel #1", .whileNonNil: "cancel #1",
    ],
    "running p": [
      .everyState: "cancel #1, start #2 for p", .whenChanged: "nothing", .whileNonNil: "nothing",
    ],
    "running q": [
      .everyState: "cancel #1, start #2 for q", .whenChanged: "cancel #1, start #2 for q",
      .whileNonNil: "nothing",
    ],
    "ended nil": [.everyState: "nothing", .whenChanged: "nothing", .whileNonNil: "nothing"],
    "ended p": [.everyState: "start #2 for p", .whenChanged: "nothing", .whileNonNil: "nothing"],
    "ended q": [
      .everyState: "start #2 for q", .whenChanged: "start #2 for q", .whileNonNil: "nothing",
    ],
  ]

  @Test(arguments: Policy.allCases)
  func everyStateAndInputFollowsTheTable(policy: Policy) {
    forEvery(Setup.allCases, [nil, "p", "q"] as [String?]) { setup, query in
      var machine = setup.make(policy)
      let step = machine.observe(query)
      let key = "\(setup.rawValue) \(query ?? "nil")"
      #expect(step.description == Self.table[key]?[policy], "\(key) under \(policy)")
    }
  }

  @Test(arguments: Policy.allCases)
  func aNilQueryAlwaysLeavesNothingRunning(policy: Policy) {
    forEvery(Setup.allCases, [()]) { setup, _ in
      var machine = setup.make(policy)
      _ = machine.observe(nil)
      #expect(machine.running == nil)
      #expect(machine.latched == nil)
    }
  }

  /// Over every sequence of four inputs (queries, nil, and the running effect completing),
  /// the machine never cancels anything but the one effect it runs, never runs two, and
  /// numbers launches 1, 2, 3...
  @Test(arguments: Policy.allCases)
  func invariantsHoldOverEverySequence(policy: Policy) {
    enum Input {
      case query(String?)
      case completes
    }
    let alphabet: [Input] = [.query(nil), .query("p"), .query("q"), .completes]
    for sequence in everySequence(of: alphabet, length: 4) {
      var machine = policy.machine
      var running: UInt64?
      var launches: UInt64 = 0
      for input in sequence {
        switch input {
        case .completes:
          if let serial = running { machine.ended(serial) }
          running = nil
        case .query(let query):
          let step = machine.observe(query)
          if let cancel = step.cancel {
            #expect(
              cancel == running, "cancelled #\(cancel), but #\(String(describing: running)) ran")
            running = nil
          }
          if let start = step.start {
            #expect(running == nil, "started #\(start.serial) while another ran")
            launches += 1
            #expect(start.serial == launches)
            #expect(start.query == query)
            running = start.serial
          }
        }
        #expect(machine.running == running)
      }
    }
  }

  @Test func endedForAnOldLaunchIsIgnored() {
    var machine = LensMachine<String>(policy: .restartOnEveryState)
    _ = machine.observe("p")
    _ = machine.observe("q")  // cancels #1, runs #2
    machine.ended(1)  // #1's task ends later
    #expect(machine.running == 2)
    #expect(machine.observe(nil).description == "cancel #2")
  }
}
