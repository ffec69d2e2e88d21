import WeftCore

/// A context stands for its primary client's state: `StateOwner`'s read and observe API
/// works on the client's cell (what `ObservedState(context)` models). The context's own
/// `state` and `snapshot` — the MainActor mirror — are what its members read, and shadow the
/// protocol's; in code generic over `StateOwner`, `state` reads the cell.
extension ClientContext: StateOwner {
  /// The primary client's state.
  public typealias State = C.State

  /// The primary client's cell.
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: any; the cell is `Sendable`.
  public nonisolated var cell: StateCell<C.State> { client.cell }
}
