import WeftCore

/// What the notes list shows: the notes as the database last delivered them and the search
/// query.
///
/// - Note: Isolation: a `Sendable` value.
/// - Complexity: the computed properties are O(n), n = notes.
public struct NotesState: Sendable, Equatable {
  /// Every note, oldest first.
  public var notes: [Note] = []
  /// The applied search query ("" shows every note).
  public var query = ""
  /// The last error of the observed fetch, if it failed.
  public var loadError: String?
  /// Whether the observed fetch delivered at least once.
  public var isLoaded = false

  /// How many notes are pinned.
  public var pinnedCount: Int { notes.count { $0.pinned } }

  /// The notes whose title contains the query (case-insensitive); every note for "".
  public var visible: [Note] {
    query.isEmpty ? notes : notes.filter { $0.title.lowercased().contains(query.lowercased()) }
  }
}

/// The notes list's client: owns `NotesState`, fed by the database's observed fetch
/// (`apply`).
///
/// - Note: Isolation: an actor; `cell` is readable from any isolation.
/// - Complexity: each method O(1) plus one commit, except `apply` (O(n) to compare).
public actor NotesClient: Client {
  /// The state.
  public nonisolated let cell = StateCell(NotesState(), name: "NotesClient")

  /// Makes an empty list.
  ///
  /// - Complexity: O(1).
  public init() {}

  /// Applies a fetch of the list: one commit when anything changed.
  ///
  /// - Complexity: O(n), n = notes compared.
  public func apply(_ notes: [Note]) {
    let state = cell.state
    guard state.notes != notes || state.loadError != nil || !state.isLoaded else { return }
    cell.update { state in
      state.notes = notes
      state.loadError = nil
      state.isLoaded = true
    }
  }

  /// Records that the observed fetch failed.
  ///
  /// - Complexity: O(1).
  public func fail(_ message: String) {
    cell.update { $0.loadError = message }
  }

  /// Applies a search query (one commit when it changed).
  ///
  /// - Complexity: O(1).
  public func setQuery(_ query: String) {
    guard cell.state.query != query else { return }
    cell.update { $0.query = query }
  }
}
