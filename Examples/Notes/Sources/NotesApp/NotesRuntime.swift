import WeftContexts
import WeftCore
import WeftPersistence
import WeftSimulation

/// The Notes app, headless: its database, clients, context tree and observable paths, built
/// on WeftSimulation's work tracker and a clock, so a simulator (or a test) can settle it
/// deterministically.
///
/// Every piece of asynchronous work begins and ends in `tracker`: a write holds
/// `notes.refresh` until the observed fetch that reflects it is applied, and the search's
/// debounce (`notes.search`) sleeps on `clock`. `relaunch()` tears everything down and opens
/// the same SQLite file again, as a new process would.
///
/// ```swift
/// let tracker = WorkTracker()
/// let clock = SimulationClock(testClock: TestClock(), tracker: tracker)
/// let app = try await NotesRuntime.launch(databasePath: path, tracker: tracker, clock: clock)
/// try await app.add(title: "Milk", pinned: true)
/// try await Settler(tracker: tracker, clock: clock.testClock).settle()
/// app.notes.cell.state.notes.count   // 1
/// ```
///
/// - Note: Isolation: MainActor (the context tree lives there).
/// - Complexity: each operation O(1) database writes plus one re-fetch of the list (O(n)).
@MainActor
public final class NotesRuntime {
  /// The SQLite file.
  public let databasePath: String
  /// Where the app's asynchronous work is announced.
  public let tracker: WorkTracker
  /// The clock the app sleeps on.
  public let clock: SimulationClock
  /// How long a search waits for the next keystroke before it applies.
  public static let searchDebounce: Duration = .milliseconds(300)

  /// The current launch's database.
  public private(set) var database: Database
  /// The notes list's client.
  public private(set) var notes: NotesClient
  /// The editor's client.
  public private(set) var editorClient: EditorClient
  /// The root of the app's context tree (`global/Notes`).
  public private(set) var root: Context
  /// The editor's context (`global/Notes/Editor`).
  public private(set) var editor: EditorContext
  /// The observable paths of the current launch.
  public private(set) var paths: [String: ObservablePath] = [:]
  /// 1, plus 1 per relaunch.
  public private(set) var launchCount = 1
  private var observation: Task<Void, Never>?
  private var searchGeneration = 0
  private var earlierStatements: UInt64 = 0

  private init(
    databasePath: String, tracker: WorkTracker, clock: SimulationClock, database: Database
  ) {
    self.databasePath = databasePath
    self.tracker = tracker
    self.clock = clock
    self.database = database
    self.notes = NotesClient(tracker: tracker)
    self.editorClient = EditorClient()
    self.root = Context.global.createSubcontext(named: "Notes")
    self.editor = EditorContext(client: editorClient, in: root)
    paths = makePaths()
  }

  /// The database's configuration: no real-time pacing of observation re-fetches, which would
  /// start a re-fetch a millisecond of wall time later, outside the step that caused it — a
  /// simulation's counts must not depend on the machine's speed.
  static var databaseConfiguration: Database.Configuration {
    var configuration = Database.Configuration()
    configuration.observationBurstInterval = .zero
    return configuration
  }

  /// Opens (creating or migrating) the database at `databasePath` and starts the app; returns
  /// once the list shows what the file holds.
  ///
  /// - Throws: `PersistenceError` when the file cannot be opened or migrated.
  /// - Complexity: O(1) plus the migrations and one fetch of the list.
  public static func launch(
    databasePath: String, tracker: WorkTracker, clock: SimulationClock
  ) async throws -> NotesRuntime {
    let database = try await Database.open(
      at: databasePath, migrations: NotesSchema.migrations,
      configuration: databaseConfiguration)
    let runtime = NotesRuntime(
      databasePath: databasePath, tracker: tracker, clock: clock, database: database)
    await runtime.startObserving()
    return runtime
  }

  /// Closes the current launch and opens the same file again with new clients, contexts
  /// and paths (subscriptions to the old paths stop receiving).
  ///
  /// - Throws: `PersistenceError` when the file cannot be opened again.
  /// - Complexity: as `launch` plus `shutDown`.
  public func relaunch() async throws {
    await shutDown()
    earlierStatements &+= database.statistics.statements
    database = try await Database.open(
      at: databasePath, migrations: NotesSchema.migrations,
      configuration: Self.databaseConfiguration)
    notes = NotesClient(tracker: tracker)
    editorClient = EditorClient()
    root = Context.global.createSubcontext(named: "Notes")
    editor = EditorContext(client: editorClient, in: root)
    paths = makePaths()
    launchCount += 1
    await startObserving()
  }

  /// Stops observing and closes the database.
  ///
  /// - Complexity: O(1) plus the wait for the observation's current step.
  public func shutDown() async {
    observation?.cancel()
    await observation?.value
    observation = nil
    await database.close()
  }

  /// SQL statements run by every launch so far.
  ///
  /// - Complexity: O(1).
  public var sqlStatements: UInt64 { earlierStatements &+ database.statistics.statements }

  // MARK: Notes

  /// Adds a note at the end of the list.
  ///
  /// - Throws: `NotesError.invalidTitle` for a blank title; `PersistenceError`.
  /// - Complexity: one write transaction.
  public func add(title: String, pinned: Bool = false) async throws {
    if let message = EditorContext.validateTitle(title) { throw NotesError.invalidTitle(message) }
    try await write { tx in
      let next = try tx.reader.scalar("SELECT coalesce(max(id), 0) + 1 FROM note")
      guard case .integer(let id) = next else { throw NotesError.noRevision }
      try tx.save(Note(id: Int(id), title: title, pinned: pinned))
    }
  }

  /// Pins or unpins the note at `index` (1-based, in list order).
  ///
  /// - Throws: `NotesError.noNote`; `PersistenceError`.
  /// - Complexity: one write transaction.
  public func setPinned(_ index: Int, _ pinned: Bool) async throws {
    var note = try self.note(at: index)
    note.pinned = pinned
    try await write { [note] tx in try tx.save(note) }
  }

  /// Deletes the note at `index` (1-based).
  ///
  /// - Throws: `NotesError.noNote`; `PersistenceError`.
  /// - Complexity: one write transaction.
  public func delete(_ index: Int) async throws {
    let id = try note(at: index).id
    try await write { tx in _ = try tx.delete(Note.self, id: id) }
  }

  /// Filters the list by `query` once no other search came for `searchDebounce` (on the
  /// app's clock).
  ///
  /// - Complexity: O(1) now; one commit when it applies.
  public func search(_ query: String) {
    searchGeneration += 1
    let generation = searchGeneration
    let clock = self.clock
    tracker.spawn("notes.search") { @MainActor [weak self] in
      do {
        try await clock.sleep(for: Self.searchDebounce)
      } catch {
        return  // cancelled: the app is shutting down, nothing to apply
      }
      guard let self, generation == self.searchGeneration else { return }
      await self.notes.setQuery(query)
    }
  }

  /// The note at `index` (1-based) as the list shows it now.
  ///
  /// - Throws: `NotesError.noNote`.
  /// - Complexity: O(1).
  public func note(at index: Int) throws(NotesError) -> Note {
    let notes = self.notes.cell.state.notes
    guard notes.indices.contains(index - 1) else {
      throw .noNote(index: index, count: notes.count)
    }
    return notes[index - 1]
  }

  // MARK: Editor

  /// Opens the editor on the note at `index`, or on a new note when `nil`.
  ///
  /// - Throws: `NotesError.noNote`.
  /// - Complexity: one commit.
  public func edit(_ index: Int?) async throws {
    await editor.open(try index.map { index throws(NotesError) in try note(at: index) })
  }

  /// Saves the editor's title: updates the note it edits, or adds a new one; then the editor
  /// starts a new note.
  ///
  /// - Throws: `NotesError.invalidTitle` while the editor shows an error or has no title;
  ///   `NotesError.noNote` when the edited note was deleted meanwhile; `PersistenceError`.
  /// - Complexity: one write transaction and one commit.
  public func saveEditor() async throws {
    await editor.settle()
    let state = editor.state
    if let error = state.error { throw NotesError.invalidTitle(error) }
    if let message = EditorContext.validateTitle(state.title) {
      throw NotesError.invalidTitle(message)
    }
    if let id = state.noteID {
      guard var note = notes.cell.state.notes.first(where: { $0.id == id }) else {
        throw NotesError.noNote(index: id, count: notes.cell.state.notes.count)
      }
      note.title = state.title
      try await write { [note] tx in try tx.save(note) }
    } else {
      try await add(title: state.title)
    }
    await editor.open(nil)
  }

  // MARK: Internals

  /// Runs `body` and bumps the revision in one write transaction, holding `notes.refresh`
  /// until the observed fetch shows the result.
  private func write(_ body: @escaping @Sendable (Transaction) throws -> Void) async throws {
    tracker.begin(NotesClient.refreshWork)
    let revision: Int
    do {
      revision = try await database.write { tx in
        try body(tx)
        return try NotesSchema.bumpRevision(tx)
      }
    } catch {
      tracker.end(NotesClient.refreshWork)
      throw error
    }
    await notes.awaitRevision(revision)
  }

  /// Starts the observed fetch that feeds `notes`; returns once its first value is applied
  /// (or its failure recorded in `notes.error`).
  private func startObserving() async {
    tracker.begin(NotesClient.refreshWork)
    await notes.awaitFirstFetch()
    let stream = database.observe(tables: [Note.tableName, "notes_revision"]) { db in
      (try db.fetchAll(Note.self, sortBy: [.ascending("id")]), try NotesSchema.revision(db))
    }
    let notes = self.notes
    observation = Task {
      do {
        for try await (list, revision) in stream { await notes.apply(list, revision: revision) }
      } catch {
        await notes.fail("\(error)")
      }
    }
    while true {
      // Read the generation before the state: the first apply commits before it ends its
      // work, so a change after this read cannot be missed.
      let generation = tracker.status.generation
      let state = notes.cell.state
      if state.isLoaded || state.loadError != nil { return }
      await tracker.waitForChange(since: generation)
    }
  }

  private func makePaths() -> [String: ObservablePath] {
    let notes = self.notes.cell
    let editor = editorClient.cell
    let list: [ObservablePath] = [
      ObservablePath("notes.count", cell: notes) { .int($0.notes.count) },
      ObservablePath("notes.pinned", cell: notes) { .int($0.pinnedCount) },
      ObservablePath("notes.lastTitle", cell: notes) { .optional($0.notes.last?.title) },
      ObservablePath("notes.visible", cell: notes) { .int($0.visible.count) },
      ObservablePath("notes.query", cell: notes) { .string($0.query) },
      ObservablePath("notes.error", cell: notes) { .optional($0.loadError) },
      ObservablePath("editor.title", cell: editor) { .string($0.title) },
      ObservablePath("editor.error", cell: editor) { .optional($0.error) },
      ObservablePath("editor.isNew", cell: editor) { .bool($0.noteID == nil) },
    ]
    return Dictionary(uniqueKeysWithValues: list.map { ($0.name, $0) })
  }
}
