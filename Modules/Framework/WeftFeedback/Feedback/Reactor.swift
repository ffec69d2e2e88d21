/// What a feedback's rule asks the system to do after a state or an event.
enum EffectCommand<Event: Sendable> {
  /// Launch `effect` as the feedback's launch number `serial`.
  case launch(serial: UInt64, detail: String?, effect: Effect<Event>)
  /// Cancel the feedback's launch number `serial`.
  case cancel(serial: UInt64)
}

/// The commands one feedback produced for one state or event, in order.
struct EffectCommands<Event: Sendable> {
  /// Whether launches should carry a description of their query (only when observed).
  let describes: Bool
  private(set) var list: [EffectCommand<Event>] = []

  init(describes: Bool) { self.describes = describes }

  var isEmpty: Bool { list.isEmpty }

  mutating func launch(
    _ serial: UInt64, for detail: @autoclosure () -> Any?, _ effect: Effect<Event>
  ) {
    let text = describes ? detail().map { String(describing: $0) } : nil
    list.append(.launch(serial: serial, detail: text, effect: effect))
  }

  mutating func cancel(_ serial: UInt64) { list.append(.cancel(serial: serial)) }

  mutating func removeAll() { list.removeAll(keepingCapacity: true) }
}

/// The live half of one feedback inside a running system: it applies the feedback's rule to
/// each state and event and answers with commands. One per feedback per system, kept on the
/// system's host; subclasses hold the pure machines.
class Reactor<State: Sendable, Event: Sendable> {
  /// Called once with the initial state, before any event.
  func start(_ state: State, _ commands: inout EffectCommands<Event>) {}

  /// Called after each event is reduced, with the state it produced.
  func react(to event: Event, in state: State, _ commands: inout EffectCommands<Event>) {}

  /// Called when the launch `serial` of this feedback has finished.
  func ended(_ serial: UInt64) {}

  /// Called with a new state that no event of this feedback's own produced (an element's
  /// state a parent event changed, `forEach(elements:…)`): state-driven rules apply it as
  /// they apply a reduced state; event-driven rules ignore it.
  func observe(_ state: State, _ commands: inout EffectCommands<Event>) {}
}

/// A reactor whose rule depends only on one value of the state (a set, a dictionary): it
/// applies `apply` to that value of the initial state and of every reduced state, whatever
/// the event.
class StateReactor<State: Sendable, Event: Sendable, Value>: Reactor<State, Event> {
  private let value: @Sendable (State) -> Value

  init(value: @escaping @Sendable (State) -> Value) { self.value = value }

  override final func start(_ state: State, _ commands: inout EffectCommands<Event>) {
    apply(value(state), &commands)
  }

  override final func react(
    to event: Event, in state: State, _ commands: inout EffectCommands<Event>
  ) {
    apply(value(state), &commands)
  }

  override final func observe(_ state: State, _ commands: inout EffectCommands<Event>) {
    apply(value(state), &commands)
  }

  /// Called with the value of each state, in order; subclasses answer with commands.
  func apply(_ value: Value, _ commands: inout EffectCommands<Event>) {}
}
