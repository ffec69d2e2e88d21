import Foundation
import Testing
import WeftCore
import WeftPersistence

@testable import NotesApp

/// A fresh folder for one test's SQLite file, removed by `remove()`.
struct Scratch {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("notes-tests-\(UUID().uuidString)")
  var database: String { folder.appendingPathComponent("notes.sqlite").path }

  init() throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  func remove() {
    // try?: a leftover folder in the temporary directory cannot fail a test.
    try? FileManager.default.removeItem(at: folder)
  }
}

@Suite("Notes app")
@MainActor
struct NotesAppTests {
  /// Launches the app on `path` with a test clock for its debounce; returns both. The app
  /// runs on threads here (a test process cannot install the deterministic runtime): what
  /// the observed fetch delivers is awaited with `wait(_:)`.
  func launch(_ path: String) async throws -> (NotesRuntime, TestClock) {
    let clock = TestClock()
    let app = try await NotesRuntime.launch(databasePath: path, clock: clock)
    return (app, clock)
  }

  @Test func migrationToVersion2KeepsVersion1NotesUnpinned() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    // A file written by version 1 of the app: no `pinned` column yet.
    let old = try await Database.open(at: scratch.database, migrations: [NotesSchema.version1])
    try await old.write { tx in
      try tx.execute("INSERT INTO note (id, title) VALUES (1, 'Written by v1')")
    }
    await old.close()

    let migrated = try await Database.open(
      at: scratch.database, migrations: NotesSchema.migrations)
    #expect(migrated.migrationRuns.map(\.version) == [2, 3])
    let notes = try await migrated.fetchAll(Note.self)
    #expect(notes == [Note(id: 1, title: "Written by v1", pinned: false)])
    let columns = try await migrated.read { db in
      try db.rows("SELECT name FROM pragma_table_info('note')").map { $0["name"] }
    }
    #expect(columns == [.text("id"), .text("title"), .text("pinned")])
    // Version 3 dropped the revision table that only a simulator of old used.
    let revisionTables = try await migrated.read { db in
      try db.rows("SELECT name FROM sqlite_master WHERE name = 'notes_revision'").count
    }
    #expect(revisionTables == 0)
    await migrated.close()

    // The app opens the migrated file and shows the note; pinning it writes the new column.
    let (app, _) = try await launch(scratch.database)
    #expect(app.notes.cell.state.notes.map(\.title) == ["Written by v1"])
    try await app.setPinned(1, true)
    #expect(await wait { app.notes.cell.state.pinnedCount == 1 })
    await app.shutDown()
  }

  @Test func theObservedFetchFeedsTheStateAfterEveryWrite() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let (app, _) = try await launch(scratch.database)
    #expect(app.notes.cell.state.isLoaded)
    #expect(app.notes.cell.state.notes.isEmpty)

    try await app.add(title: "Milk")
    #expect(await wait { app.notes.cell.state.notes.map(\.title) == ["Milk"] })

    // A write the app did not make (another connection to the same file) reaches the state
    // through the observation too.
    try await app.database.write { tx in
      try tx.save(Note(id: 7, title: "From elsewhere", pinned: true))
    }
    let arrived = await wait { app.notes.cell.state.notes.count == 2 }
    #expect(arrived)
    #expect(app.notes.cell.state.pinnedCount == 1)
    #expect(app.notes.cell.state.notes.last?.title == "From elsewhere")
    await app.shutDown()
  }

  @Test func theTitleBindingRejectsABlankTitle() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let (app, _) = try await launch(scratch.database)
    #expect(await app.editor.type("Draft"))
    #expect(await app.editor.type("") == false)
    #expect(app.editor.title.failure?.message == "a note needs a title")
    #expect(app.editorClient.cell.state.title == "Draft")
    #expect(app.editorClient.cell.state.error?.hasSuffix("a note needs a title") == true)
    #expect(await app.editor.type("  ") == false)

    // Saving while the editor shows an error is refused, and nothing is written.
    await #expect(throws: NotesError.self) { try await app.saveEditor() }
    #expect(await app.editor.type("Final"))
    #expect(app.editorClient.cell.state.error == nil)
    try await app.saveEditor()
    #expect(await wait { app.notes.cell.state.notes.map(\.title) == ["Final"] })
    await app.shutDown()
  }

  @Test func searchAppliesOnlyAfterTheDebounceOnItsClock() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let (app, clock) = try await launch(scratch.database)
    try await app.add(title: "Milk")
    try await app.add(title: "Bread")
    #expect(await wait { app.notes.cell.state.notes.count == 2 })
    app.search("mi")
    await clock.waitForSleepers(count: 1)
    await clock.advance(by: .milliseconds(299))
    #expect(app.notes.cell.state.query == "")
    await clock.advance(by: .milliseconds(1))
    #expect(await wait { app.notes.cell.state.query == "mi" })
    #expect(app.notes.cell.state.visible.map(\.title) == ["Milk"])
    await app.shutDown()
  }

  @Test func theBodyIsWrittenOnceTypingPausesForItsWindow() async throws {
    let scratch = try Scratch()
    defer { scratch.remove() }
    let (app, clock) = try await launch(scratch.database)
    app.editor.body.set("Mil")
    #expect(app.editor.body.get() == "Mil")  // shown at once, written later
    await clock.waitForSleepers(count: 1)
    await clock.advance(by: .milliseconds(499))
    #expect(app.editorClient.cell.state.body == "")
    await clock.advance(by: .milliseconds(1))
    #expect(await wait { app.editorClient.cell.state.body == "Mil" })
    await app.shutDown()
  }

  /// Polls `condition` until it holds, for at most 10 s of real time: on threads, what the
  /// observed fetch delivers arrives when it arrives (notes-sim, on the deterministic
  /// runtime, settles on it instead).
  func wait(_ condition: @MainActor () -> Bool) async -> Bool {
    for _ in 0..<1_000 {
      if condition() { return true }
      // try?: a cancelled sleep only shortens the wait; the condition decides.
      try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
  }
}

/// The reminder's reducer, as the flow `Flows/reminder.flow` drives it on virtual time.
@Suite("Reminder countdown")
struct ReminderTests {
  @Test func ticksDownAndFiresOnceAtZero() {
    var state = Reminder.State()
    Reminder.reduce(&state, .start(seconds: 2))
    #expect(state.remaining == 2)
    Reminder.reduce(&state, .tick)
    #expect(state.remaining == 1 && state.fired == 0)
    Reminder.reduce(&state, .tick)
    #expect(state.remaining == nil && state.fired == 1)
    Reminder.reduce(&state, .tick)  // a late tick after firing changes nothing
    #expect(state.remaining == nil && state.fired == 1)
  }

  @Test func cancelStopsWithoutFiringAndZeroFiresAtOnce() {
    var state = Reminder.State()
    Reminder.reduce(&state, .start(seconds: 5))
    Reminder.reduce(&state, .cancel)
    #expect(state.remaining == nil && state.fired == 0)
    Reminder.reduce(&state, .start(seconds: 0))
    #expect(state.remaining == nil && state.fired == 1)
  }
}
