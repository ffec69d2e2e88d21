import WeftCore

/// Carries out `forEach(elements:extract:embed:feedbacks:)` for one feedback in one system:
/// per element present, one reactor per child feedback; the children's launches renumbered
/// as this feedback's, their effects' events embedded.
final class ElementsReactor<
  State: Sendable, Event: Sendable, Element: Identifiable & Equatable & Sendable,
  ElementEvent: Sendable
>: Reactor<State, Event> where Element.ID: Sendable {
  /// The live half of one element: its last state, its feedbacks' reactors, its running
  /// launches (this feedback's serials), and a generation that tells it from an earlier
  /// element with the same id.
  struct Child {
    var last: Element
    var reactors: [Reactor<Element, ElementEvent>]
    var running: Set<UInt64> = []
    let generation: UInt64
  }

  /// One launch of a child feedback, as this feedback knows it.
  struct Launch: Hashable {
    var id: Element.ID
    var generation: UInt64
    var feedback: Int
    var serial: UInt64
  }

  private let elements: @Sendable (State) -> IdentifiedArray<Element>
  private let extract: @Sendable (Event) -> (id: Element.ID, event: ElementEvent)?
  private let embed: @Sendable (Element.ID, ElementEvent) -> Event
  private let feedbacks: [Feedback<Element, ElementEvent>]
  private let names: [String]
  private let dispatch: EventDispatch<Event>
  private var children: [Element.ID: Child] = [:]
  private var launches: [UInt64: Launch] = [:]
  private var serials: [Launch: UInt64] = [:]
  private var nextSerial: UInt64 = 0
  private var nextGeneration: UInt64 = 0

  init(
    elements: @escaping @Sendable (State) -> IdentifiedArray<Element>,
    extract: @escaping @Sendable (Event) -> (id: Element.ID, event: ElementEvent)?,
    embed: @escaping @Sendable (Element.ID, ElementEvent) -> Event,
    feedbacks: [Feedback<Element, ElementEvent>], dispatch: EventDispatch<Event>
  ) {
    self.elements = elements
    self.extract = extract
    self.embed = embed
    self.feedbacks = feedbacks
    self.names = feedbacks.indices.map { feedbacks[$0].displayName(at: $0) }
    self.dispatch = dispatch
  }

  override func start(_ state: State, _ commands: inout EffectCommands<Event>) {
    for element in elements(state) { appear(element, &commands) }
  }

  override func react(to event: Event, in state: State, _ commands: inout EffectCommands<Event>) {
    let current = elements(state)
    if !children.isEmpty {
      let leavers = children.keys.filter { !current.contains(id: $0) }
      for id in leavers { leave(id, &commands) }
    }
    let addressed = extract(event)
    for element in current {
      guard var child = children[element.id] else {
        appear(element, &commands)
        continue
      }
      var childCommands = EffectCommands<ElementEvent>(describes: commands.describes)
      if let addressed, addressed.id == element.id {
        for index in child.reactors.indices {
          child.reactors[index].react(to: addressed.event, in: element, &childCommands)
          translate(&childCommands, &child, element.id, feedback: index, into: &commands)
        }
      } else if element != child.last {
        for index in child.reactors.indices {
          child.reactors[index].observe(element, &childCommands)
          translate(&childCommands, &child, element.id, feedback: index, into: &commands)
        }
      }
      child.last = element
      children[element.id] = child
    }
  }

  override func ended(_ serial: UInt64) {
    guard let launch = launches.removeValue(forKey: serial) else { return }
    serials[launch] = nil
    guard var child = children[launch.id], child.generation == launch.generation else { return }
    child.running.remove(serial)
    child.reactors[launch.feedback].ended(launch.serial)
    children[launch.id] = child
  }

  /// Starts an element's feedbacks on its state.
  private func appear(_ element: Element, _ commands: inout EffectCommands<Event>) {
    let id = element.id
    nextGeneration += 1
    let dispatch = dispatch
    let embed = embed
    let childDispatch = EventDispatch<ElementEvent> { event, isolation in
      dispatch(embed(id, event), isolation: isolation)
    }
    var child = Child(
      last: element, reactors: feedbacks.map { $0.makeReactor(childDispatch) },
      generation: nextGeneration)
    var childCommands = EffectCommands<ElementEvent>(describes: commands.describes)
    for index in child.reactors.indices {
      child.reactors[index].start(element, &childCommands)
      translate(&childCommands, &child, id, feedback: index, into: &commands)
    }
    children[id] = child
  }

  /// Cancels every running launch of an element that left, in launch order.
  private func leave(_ id: Element.ID, _ commands: inout EffectCommands<Event>) {
    guard let child = children.removeValue(forKey: id) else { return }
    for serial in child.running.sorted() { commands.cancel(serial) }
  }

  /// Turns one child feedback's commands into this feedback's, and empties them.
  private func translate(
    _ childCommands: inout EffectCommands<ElementEvent>, _ child: inout Child, _ id: Element.ID,
    feedback index: Int, into commands: inout EffectCommands<Event>
  ) {
    guard !childCommands.isEmpty else { return }
    for command in childCommands.list {
      switch command {
      case .launch(let childSerial, let detail, let effect):
        nextSerial += 1
        let serial = nextSerial
        let launch = Launch(
          id: id, generation: child.generation, feedback: index, serial: childSerial)
        launches[serial] = launch
        serials[launch] = serial
        child.running.insert(serial)
        let name = names[index]
        commands.launch(
          serial, for: detail.map { "\(id) \(name) for \($0)" } ?? "\(id) \(name)",
          Self.embedding(effect, id, embed))
      case .cancel(let childSerial):
        let launch = Launch(
          id: id, generation: child.generation, feedback: index, serial: childSerial)
        if let serial = serials[launch] { commands.cancel(serial) }
      }
    }
    childCommands.removeAll()
  }

  /// The child's effect, its events embedded as the parent's.
  private static func embedding(
    _ effect: Effect<ElementEvent>, _ id: Element.ID,
    _ embed: @escaping @Sendable (Element.ID, ElementEvent) -> Event
  ) -> Effect<Event> {
    Effect { isolation, emit in
      let last = await effect.run(isolation) { event in emit(embed(id, event)) }
      return last.map { embed(id, $0) }
    }
  }
}
