import WeftCore
import WeftSimulation

/// What the notes list shows: the notes as the database last delivered them, the search
/// query, and the database revision they reflect.
///
/// - Note: Isolation: a `Sendable` value.
/// - Complexity: the computed properties are O(n), n = notes.
public struct NotesState: Sendable, Equatable {
  /// Every note, oldest first.
  public var notes: [Note] = []
  /// The revision of the database the notes were read at (0 before the first read).
  public var revision = 0
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

/// The notes list's client: owns `NotesState`. The database's observed fetch feeds it
/// (`apply`), and a write waits here until the fetch that reflects it has been applied
/// (`awaitRevision`), announced to the work tracker so a simulator settles on it.
///
/// - Note: Isolation: an actor; `cell` is readable from any isolation.
/// - Complexity: each method O(1) plus one commit, except `apply` (O(p), p = writes
///   waiting).
public actor NotesClient: Client {
  /// The state.
  public nonisolated let cell = StateCell(NotesState(), name: "NotesClient")
  private let tracker: WorkTracker
  private var waiting: [Int] = []

  /// The name of the tracked work a write holds until its revision is on screen.
  public static let refreshWork = "notes.refresh"

  /// Makes a client whose waits are announced to `tracker`.
  ///
  /// - Complexity: O(1).
  public init(tracker: WorkTracker) { self.tracker = tracker }

  /// Applies a fetch of the database at `revision`: one commit when anything changed; ends
  /// the tracked waits of every write up to `revision`.
  ///
  /// - Complexity: O(n + p), n = notes compared, p = writes waiting.
  public func apply(_ notes: [Note], revision: Int) {
    let state = cell.state
    if state.notes != notes || state.revision != revision || state.loadError != nil
      || !state.isLoaded
    {
      cell.update { state in
        state.notes = notes
        state.revision = revision
        state.loadError = nil
        state.isLoaded = true
      }
    }
    let done = waiting.filter { $0 <= revision }
    waiting.removeAll { $0 <= revision }
    for _ in done { tracker.end(Self.refreshWork) }
  }

  /// Records that the observed fetch failed, and ends every wait (nothing more will come).
  ///
  /// - Complexity: O(p).
  public func fail(_ message: String) {
    cell.update { $0.loadError = message }
    for _ in waiting { tracker.end(Self.refreshWork) }
    waiting.removeAll()
  }

  /// Ends one `refreshWork` (begun by the caller before its write) once the state reflects
  /// `revision`: now if it already does, else when `apply` gets there.
  ///
  /// - Complexity: O(1).
  public func awaitRevision(_ revision: Int) {
    if cell.state.revision >= revision {
      tracker.end(Self.refreshWork)
    } else {
      waiting.append(revision)
    }
  }

  /// Ends one `refreshWork` (begun by the caller) once the first fetch was applied.
  ///
  /// - Complexity: O(1).
  public func awaitFirstFetch() {
    if cell.state.isLoaded {
      tracker.end(Self.refreshWork)
    } else {
      waiting.append(Int.min)
    }
  }

  /// Applies a search query (one commit when it changed).
  ///
  /// - Complexity: O(1).
  public func setQuery(_ query: String) {
    guard cell.state.query != query else { return }
    cell.update { $0.query = query }
  }
}
