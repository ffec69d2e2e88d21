import Testing
import WeftCore
import WeftFeedback

/// The state and events of the tick-diagram tests: a query, a flag, and the events effects
/// feed back.
struct Probe: Sendable, Equatable {
  var query: String?
  var flag = false
  var pokes = 0
  var done: [String] = []

  enum Event: Sendable, Equatable {
    case set(String?)
    case flag(Bool)
    case poke
    case go(String)
    case done(String)
  }

  static func reduce(_ state: inout Probe, _ event: Event) {
    switch event {
    case .set(let query): state.query = query
    case .flag(let flag): state.flag = flag
    case .poke: state.pokes += 1
    case .go: break
    case .done(let label): state.done.append(label)
    }
  }

  /// The event an input character stands for: a letter sets the query, `-` clears it,
  /// `T`/`F` set the flag, `*` is an event no rule looks at, a digit is `.go(digit)`,
  /// `.` is nothing.
  static func input(_ symbol: Character) -> Event? {
    switch symbol {
    case ".": nil
    case "-": .set(nil)
    case "*": .poke
    case "T": .flag(true)
    case "F": .flag(false)
    case let digit where digit.isNumber: .go(String(digit))
    default: .set(String(symbol))
    }
  }
}

/// Drives a MainActor feedback system tick by tick (one tick = one virtual second) and draws
/// what its effects did as a diagram, one column per tick:
///
/// ```
/// tick   0123456
/// input  a.b....
/// a      ^-x
/// b        ^-|
/// fed      ....b
/// ```
///
/// Effect rows, in launch order, are labelled with their query (or feedback): `^` started,
/// `-` running, `|` completed, `x` cancelled, `X` started and cancelled in the same tick,
/// `o` cancelled before it started (it never ran). The `fed` row shows the label of each
/// `.done` event effects fed back, at the tick it was reduced.
///
/// Between steps the harness waits on `Quiescence` (every running effect parked on the
/// clock), an explicit signal: no sleeps, no yields.
@MainActor
final class TickHarness {
  let clock = TestClock()
  let quiescence: Quiescence
  private let activities = Recorder<(tick: Int, activity: EffectActivity)>()
  private let fed = Recorder<(tick: Int, label: String)>()
  private(set) var system: FeedbackSystem<Probe, Probe.Event>!

  init(_ feedbacks: (TickHarness) -> [Feedback<Probe, Probe.Event>]) {
    quiescence = Quiescence(clock: clock)
    let quiescence = quiescence
    let activities = activities
    let fed = fed
    system = FeedbackSystem(
      initial: Probe(),
      reduce: { state, event in
        if case .done(let label) = event { fed.append((quiescence.tick, label)) }
        Probe.reduce(&state, event)
      },
      feedbacks: feedbacks(self), on: MainActor.shared,
      observingEffects: { activity in
        activities.append((quiescence.tick, activity))
        quiescence.observe(activity)
      })
  }

  /// An effect that sleeps `ticks` and then feeds back `.done(label)`.
  nonisolated func sleeper(_ label: String, ticks: Int = 2) -> @Sendable () async -> Probe.Event? {
    let quiescence = quiescence
    return {
      do {
        try await quiescence.sleep(for: .seconds(ticks))
        return .done(label)
      } catch {
        return nil
      }
    }
  }

  /// A sequence that feeds back `.done(label)` every `ticks`, forever.
  nonisolated func ticker(_ label: String, every ticks: Int) -> AsyncStream<Probe.Event> {
    let quiescence = quiescence
    return AsyncStream {
      do {
        try await quiescence.sleep(for: .seconds(ticks))
        return .done(label)
      } catch {
        return nil
      }
    }
  }

  /// Tears the system down, waits for its effects to end, and checks that nothing kept it
  /// alive.
  func finish(sourceLocation: SourceLocation = #_sourceLocation) async {
    system.cancel()
    await system.waitUntilIdle()
    weak let weakSystem = system
    system = nil
    #expect(weakSystem == nil, "the system outlived the test", sourceLocation: sourceLocation)
  }

  /// Plays `inputs` (one character per tick, see `Probe.input`) and returns the diagram.
  func run(_ inputs: String) async -> String {
    let inputs = Array(inputs)
    for (tick, symbol) in inputs.enumerated() {
      await quiescence.advance(toTick: tick)
      await quiescence.settled()
      if let event = Probe.input(symbol) { system.send(event) }
      await quiescence.settled()
    }
    return render(ticks: inputs.count, inputs: String(inputs))
  }

  private func render(ticks: Int, inputs: String) -> String {
    var rows = [
      "tick   " + String((0..<ticks).map { Character(String($0 % 10)) }),
      "input  " + inputs,
    ]
    var order: [EffectID] = []
    var marks: [EffectID: (label: String, cells: [Character])] = [:]
    var startedAt: [EffectID: Int] = [:]
    var cancelledAt: [EffectID: Int] = [:]
    for (tick, activity) in activities.values {
      let id = activity.effect
      switch activity.kind {
      case .scheduled:
        order.append(id)
        let label = activity.detail ?? activity.feedback
        marks[id] = (label, Array(repeating: " ", count: ticks))
      case .started:
        startedAt[id] = tick
        for cell in tick..<ticks { marks[id]?.cells[cell] = "-" }
        marks[id]?.cells[tick] = "^"
      case .cancelled:
        cancelledAt[id] = tick
      case .finished:
        let ended: Character
        if let start = startedAt[id] {
          let cancelled = cancelledAt[id] != nil
          ended = start == tick ? (cancelled ? "X" : "!") : (cancelled ? "x" : "|")
        } else {
          ended = "o"
        }
        marks[id]?.cells[tick] = ended
        for cell in (tick + 1)..<max(ticks, tick + 1) { marks[id]?.cells[cell] = " " }
      }
    }
    for id in order {
      guard let (label, cells) = marks[id] else { continue }
      let name = label + String(repeating: " ", count: max(1, 7 - label.count))
      rows.append(name + String(cells))
    }
    var fedRow = Array(repeating: Character("."), count: ticks)
    for (tick, label) in fed.values where tick < ticks { fedRow[tick] = label.first ?? "?" }
    rows.append("fed    " + String(fedRow))
    return rows.map { $0.replacing(/\s+$/, with: "") }.joined(separator: "\n")
  }
}
