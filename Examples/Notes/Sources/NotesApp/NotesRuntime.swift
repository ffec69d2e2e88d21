import WeftContexts
import WeftCore
import WeftPersistence

/// The Notes app, headless: its database, clients and context tree — plain Swift
/// concurrency, no simulation code. A simulator runs it on WeftRuntime's deterministic
/// runtime (notes-sim), where every task, hop, SQLite call and sleep is a job of one thread
/// and `clock` waits on virtual time; a test or a real app runs it on threads.
///
/// A write goes to the database and returns; the list changes when the database's observed
/// fetch delivers (`notes`). The search applies after `searchDebounce` of quiet on `clock`
/// (a plain task and `clock.sleep`), the editor's body after its debounced binding's window,
/// and the reminder counts down with `Task.sleep` in a WeftFeedback loop.
/// `relaunch()` tears everything down and opens the same SQLite file again, as a new
/// process would.
///
/// ```swift
/// let app = try await NotesRuntime.launch(databasePath: path)
/// try await app.add(title: "Milk", pinned: true)
/// // the observed fetch delivers: app.notes.cell.state.notes.count becomes 1
/// ```
///
/// - Note: Isolation: MainActor (the context tree lives there).
/// - Complexity: each operation O(1) database writes plus one re-fetch of the list (O(n)).
@MainActor
public final class NotesRuntime {
  /// The SQLite file.
  public let databasePath: String
  /// The clock the search and the editor's body debounce sleep on.
  public let clock: any Clock<Duration>
  /// How long a search waits for the next keystroke before it applies.
  public static let searchDebounce: Duration = .milliseconds(300)
  /// The most notes the list shows: the newest ones.
  public nonisolated static let listCapacity = 500

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
  /// The reminder countdown (a WeftFeedback loop; not persisted, so a relaunch starts idle).
  public private(set) var reminder: Reminder
  /// 1, plus 1 per relaunch.
  public private(set) var launchCount = 1
  private var observation: Task<Void, Never>?
  private var pendingSearch: Task<Void, Never>?
  private var earlierStatements: UInt64 = 0

  private init(databasePath: String, clock: any Clock<Duration>, database: Database) {
    self.databasePath = databasePath
    self.clock = clock
    self.database = database
    self.notes = NotesClient()
    self.editorClient = EditorClient()
    self.root = Context.global.createSubcontext(named: "Notes")
    self.editor = EditorContext(client: editorClient, in: root, clock: clock)
    self.reminder = Reminder()
  }

  /// Opens (creating or migrating) the database at `databasePath` and starts the app; returns
  /// once the list shows what the file holds.
  ///
  /// - Parameter clock: what the search and body debounces sleep on (`ContinuousClock` by
  ///   default).
  /// - Throws: `PersistenceError` when the file cannot be opened or migrated.
  /// - Complexity: O(1) plus the migrations and one fetch of the list.
  public static func launch(
    databasePath: String, clock: any Clock<Duration> = ContinuousClock()
  ) async throws -> NotesRuntime {
    let database = try await Database.open(at: databasePath, migrations: NotesSchema.migrations)
    let runtime = NotesRuntime(databasePath: databasePath, clock: clock, database: database)
    try await runtime.startObserving()
    return runtime
  }

  /// Closes the current launch and opens the same file again with new clients and contexts
  /// (subscriptions to the old clients stop receiving).
  ///
  /// - Throws: `PersistenceError` when the file cannot be opened again.
  /// - Complexity: as `launch` plus `shutDown`.
  public func relaunch() async throws {
    await shutDown()
    earlierStatements &+= database.statistics.statements
    database = try await Database.open(at: databasePath, migrations: NotesSchema.migrations)
    notes = NotesClient()
    editorClient = EditorClient()
    root = Context.global.createSubcontext(named: "Notes")
    editor = EditorContext(client: editorClient, in: root, clock: clock)
    reminder = Reminder()
    launchCount += 1
    try await startObserving()
  }

  /// Stops observing, searching and the reminder, and closes the database.
  ///
  /// - Complexity: O(1) plus the wait for the observation's current step.
  public func shutDown() async {
    reminder.shutDown()
    pendingSearch?.cancel()
    pendingSearch = nil
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
    try await database.write { tx in
      let next = try tx.reader.scalar("SELECT coalesce(max(id), 0) + 1 FROM note")
      guard case .integer(let id) = next else { throw NotesError.noNoteTable }
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
    try await database.write { [note] tx in try tx.save(note) }
  }

  /// Deletes the note at `index` (1-based).
  ///
  /// - Throws: `NotesError.noNote`; `PersistenceError`.
  /// - Complexity: one write transaction.
  public func delete(_ index: Int) async throws {
    let id = try note(at: index).id
    try await database.write { tx in _ = try tx.delete(Note.self, id: id) }
  }

  /// Filters the list by `query` once no other search came for `searchDebounce` (on the
  /// app's clock): a new search cancels the one still waiting.
  ///
  /// - Complexity: O(1) now; one commit when it applies.
  public func search(_ query: String) {
    pendingSearch?.cancel()
    let clock = self.clock
    let notes = self.notes
    pendingSearch = Task {
      do {
        try await clock.sleep(for: Self.searchDebounce)
      } catch {
        return  // cancelled: a newer search (or the shutdown) replaced this one
      }
      await notes.setQuery(query)
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
    await editor.waitForWrites()
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
      try await database.write { [note] tx in try tx.save(note) }
    } else {
      try await add(title: state.title)
    }
    await editor.open(nil)
  }

  // MARK: Internals

  /// The list: the newest `listCapacity` notes, oldest first.
  private nonisolated static func fetchList(_ db: ReadContext) throws -> [Note] {
    try db.fetchAll(Note.self, sortBy: [.descending("id")], limit: listCapacity).reversed()
  }

  /// Shows what the file holds, then keeps the list fed by the database's observed fetch
  /// (the newest `listCapacity` notes, oldest first).
  private func startObserving() async throws {
    let first = try await database.read(Self.fetchList)
    await notes.apply(first)
    let stream = database.observe(tables: [Note.tableName], Self.fetchList)
    let notes = self.notes
    observation = Task {
      do {
        for try await list in stream { await notes.apply(list) }
      } catch {
        await notes.fail("\(error)")
      }
    }
  }
}
