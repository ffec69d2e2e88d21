import WeftCore

/// Something that works with an `ObservablePath`'s state cell at its concrete state type —
/// which the path itself hides — such as a model that reads the path through WeftObservation
/// (`weft-sim`'s `views N observe PATH via observation`).
///
/// ```swift
/// struct CellName: ObservablePathOpener {
///   func open<State: Sendable>(
///     _ cell: StateCell<State>, selectorID: String,
///     project: @escaping @Sendable (State) -> ObservedValue
///   ) -> String { cell.name }
/// }
/// path.open(CellName())       // "Dashboard" (nil for a path made from closures)
/// ```
///
/// - Note: Isolation: `open` runs on the caller's isolation.
public protocol ObservablePathOpener {
  /// What opening a path gives.
  associatedtype Output

  /// Called with the path's cell, the id of its selector and its projection: the same three
  /// the path reads and subscribes with.
  ///
  /// - Complexity: up to the opener.
  func open<State: Sendable>(
    _ cell: StateCell<State>, selectorID: String,
    project: @escaping @Sendable (State) -> ObservedValue
  ) -> Output
}

extension ObservablePath {
  /// Hands the path's cell, selector id and projection to `opener` at their concrete types;
  /// `nil` for a path made from closures, which has no cell.
  ///
  /// - Complexity: O(1) plus what `opener` does.
  /// - Note: Isolation: runs `opener` on the caller's isolation.
  public func open<Opener: ObservablePathOpener>(_ opener: Opener) -> Opener.Output? {
    source?.open(opener)
  }
}

/// The typed parts of a path, behind an existential so the path stays non-generic.
protocol ObservablePathSource: Sendable {
  func open<Opener: ObservablePathOpener>(_ opener: Opener) -> Opener.Output
}

/// The parts of a path over a `StateCell<State>`.
struct TypedPathSource<State: Sendable>: ObservablePathSource {
  let cell: StateCell<State>
  let selectorID: String
  let project: @Sendable (State) -> ObservedValue

  func open<Opener: ObservablePathOpener>(_ opener: Opener) -> Opener.Output {
    opener.open(cell, selectorID: selectorID, project: project)
  }
}
