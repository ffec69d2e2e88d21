import WeftCore

/// One observable value of the running app, named by a dotted path (`auth.state`,
/// `dashboard.summary.totalSteps`): read it now, or subscribe a MainActor view to it.
///
/// Each path owns ONE WeftCore `StateSelector` on the state cell that holds its value, made when
/// the path is made. Every subscription to the path uses that instance, so all its
/// subscribers share one selector group: a commit costs one projection and one comparison
/// for the path, however many views observe it, and views whose value did not change are not
/// called.
///
/// ```swift
/// let steps = app.paths["dashboard.summary.totalSteps"]!
/// steps.read()                                  // .double(12000)
/// let view = steps.subscribe { value, version in render(value) }   // MainActor, coalesced
/// ```
///
/// > Important: A relaunch builds new clients: subscriptions made before it stop receiving
/// > (cancel them), and `AppRuntime.paths` holds the new paths.
///
/// # Performance
/// `read()` takes the cell's lock once and projects. `subscribe` is O(1) amortized and costs
/// one WeftCore registration plus one small closure. For very many subscribers use
/// `subscribe(_:)` with a `PathObserver`: the observer is WeftCore's registration itself, so
/// a subscriber is one heap block (and its subscription token).
///
/// - Complexity: `read()` O(1) + the projection; `subscribe` O(1) amortized.
/// - Note: Isolation: `read()` from any isolation; callbacks run on the MainActor, one job per
///   burst of commits (WeftCore's coalesced delivery).
/// - Note: Allocations: `subscribe`: the registration (≈114 B) and the adapting closures
///   (`subscribe(_:)` with an observer: its subscription token only).
public struct ObservablePath: Sendable {
  /// The dotted path.
  public let name: String
  /// The id of the WeftCore selector the path uses: what the simulator reports as the cause
  /// of a re-render.
  public let selectorDescription: String
  /// The name of the state cell holding the value.
  public let cellName: String
  /// The words the value can be, for a path that shows an enumeration's case (`auth.state`:
  /// `idle`, `authenticating`, …), or `nil` for any value. `weft-sim check` refuses a flow
  /// that compares the path with another word (`expect auth.state == authenticatd`).
  public let values: [String]?
  /// Whether the value is a secret (a password field): the simulator's trace and failure
  /// messages show `Redaction.placeholder` instead of it. See `secret()`.
  public private(set) var isSecret = false
  private let reader: @Sendable () -> ObservedValue
  private let subscriber:
    @Sendable (@escaping @MainActor @Sendable (ObservedValue, UInt64) -> Void) -> StateSubscription
  private let changeSubscriber:
    @Sendable (@escaping @MainActor @Sendable (Change<ObservedValue>) -> Void) -> StateSubscription
  /// Subscribes an observer as WeftCore's own registration; `nil` for a path made from
  /// closures.
  private let observerSubscriber: (@Sendable (PathObserver) -> StateSubscription)?
  /// The cell and projection at their concrete types, for `open(_:)`; `nil` for a path made
  /// from closures.
  let source: (any ObservablePathSource)?

  /// Makes the path `name` over `cell`, projecting its state with `project`.
  ///
  /// - Parameter values: the words the value can be, when it shows an enumeration's case
  ///   (see `values`); `nil` for any value.
  /// - Complexity: O(1); the selector is made once here.
  public init<State: Sendable>(
    _ name: String, cell: StateCell<State>, values: [String]? = nil,
    _ project: @escaping @Sendable (State) -> ObservedValue
  ) {
    let selector = StateSelector<State, ObservedValue>(id: name, project)
    self.name = name
    self.values = values
    self.selectorDescription = "\(cell.name).\(selector.id)"
    self.cellName = cell.name
    reader = { project(cell.state) }
    subscriber = { body in
      cell.observeOnMainActor(selector) { change in body(change.value, change.version) }
    }
    changeSubscriber = { body in cell.observeOnMainActor(selector, body) }
    source = TypedPathSource(cell: cell, selectorID: name, project: project)
    // The observer is its own WeftCore registration: no closure, no second block per view.
    observerSubscriber = { observer in cell.observeOnMainActor(selector, observer: observer) }
  }

  /// Makes the path `name` from closures: a value that no one state cell holds (a fake in a
  /// test, a value a plug-in derives from several cells). Its subscribers are called through
  /// `subscribe`, and `open(_:)` has no cell to hand over (`nil`).
  ///
  /// - Parameters:
  ///   - selector: what a report names as the cause of a re-render.
  ///   - values: the words the value can be (see `values`), or `nil`.
  ///   - read: the value now.
  ///   - subscribe: calls its argument on the MainActor with each new value and its version.
  /// - Complexity: O(1).
  public init(
    name: String, selector: String, values: [String]? = nil,
    read: @escaping @Sendable () -> ObservedValue,
    subscribe:
      @escaping @Sendable (_ body: @escaping @MainActor @Sendable (ObservedValue, UInt64) -> Void)
      -> StateSubscription
  ) {
    self.name = name
    self.values = values
    self.selectorDescription = selector
    self.cellName = ""
    reader = read
    subscriber = subscribe
    changeSubscriber = { body in
      subscribe { value, version in body(Change(value: value, version: version)) }
    }
    observerSubscriber = nil
    source = nil
  }

  /// Whether `subscribe(_:)` attaches an observer as WeftCore's own registration (a path over
  /// a state cell), rather than through a closure (a path made from closures).
  public var subscribesObserversDirectly: Bool { observerSubscriber != nil }

  /// This path, declared secret: what Weft writes about the app (the `--trace` file, an
  /// expectation's "found" value) shows `Redaction.placeholder`; flows still read and
  /// compare the real value.
  ///
  /// ```swift
  /// ObservablePath("login.password", cell: login.cell) { .string($0.password) }.secret()
  /// ```
  ///
  /// - Complexity: O(1).
  public func secret() -> ObservablePath {
    var copy = self
    copy.isSecret = true
    return copy
  }

  /// The value as Weft writes it: `Redaction.placeholder` for a secret path, else the value.
  ///
  /// - Complexity: O(1) plus the projection.
  public func readForDisplay() -> String { display(read()) }

  /// `value` as Weft writes it for this path: `Redaction.placeholder` for a secret path.
  ///
  /// - Complexity: O(1) plus the value's description.
  public func display(_ value: ObservedValue) -> String {
    isSecret ? Redaction.placeholder : value.description
  }

  /// The value now, from the cell's latest snapshot.
  ///
  /// - Complexity: O(1) plus the projection.
  public func read() -> ObservedValue { reader() }

  /// Calls `body` on the MainActor with the value and the commit version whenever the value
  /// changes (coalesced per burst). Cancel or drop the subscription to stop.
  ///
  /// - Complexity: O(1) amortized.
  public func subscribe(
    _ body: @escaping @MainActor @Sendable (ObservedValue, UInt64) -> Void
  ) -> StateSubscription {
    subscriber(body)
  }

  /// Like `subscribe(_:)`, with WeftCore's `Change` (value and version) handed to `body`
  /// as is. `body` still reaches WeftCore through a reabstraction thunk (WeftCore's callback
  /// is generic over the value); for very many subscribers use `subscribe(_:)` with a
  /// `PathObserver`, which has none.
  ///
  /// - Complexity: O(1) amortized.
  /// - Note: Isolation: callbacks run on the MainActor, one job per burst.
  /// - Note: Allocations: the registration (≈114 B) and the thunk's context.
  public func subscribe(
    changes body: @escaping @MainActor @Sendable (Change<ObservedValue>) -> Void
  ) -> StateSubscription {
    changeSubscriber(body)
  }

  /// Calls `observer.receive(_:)` on the MainActor with each change of the value (coalesced
  /// per burst), until the subscription is cancelled or released. The observer is WeftCore's
  /// registration itself, and the cell holds it until then: the form to use for very many
  /// subscribers.
  ///
  /// `observer` is a `PathObserver` subclass, written as `MainActorObserver`'s example shows
  /// (state `@MainActor`, the superclass's `@unchecked Sendable` restated):
  /// `let subscription = path.subscribe(Label())`.
  ///
  /// - Precondition: `observer` was never subscribed before (an observer attaches once).
  /// - Complexity: O(1) amortized; a delivery is one call of `receive`.
  /// - Note: Isolation: `receive` runs on the MainActor, one job per burst.
  /// - Note: Allocations: the subscription token (32 B) and a list slot.
  public func subscribe(_ observer: PathObserver) -> StateSubscription {
    if let observerSubscriber { return observerSubscriber(observer) }
    return subscriber { value, version in observer.receive(Change(value: value, version: version)) }
  }
}

/// A MainActor object that receives an `ObservablePath`'s changes: subclass it and override
/// `receive(_:)`, then `path.subscribe(observer)`.
///
/// It is WeftCore's `MainActorObserver` for the path's `ObservedValue`: the observer is its
/// own registration, so a subscriber is one heap block for the delivery to read (see
/// `MainActorObserver`). It attaches once; a relaunched app's path needs new observers.
///
/// - Complexity: O(1) to make.
/// - Note: Isolation: `receive` runs on the MainActor; keep a subclass's state `@MainActor`.
public typealias PathObserver = MainActorObserver<ObservedValue>
