import WeftPersistence

/// A note as stored: one row of the `note` table.
///
/// Ids are given in order (1, 2, 3, …), so the list's order is the order notes were added
/// and a run is the same on every machine.
///
/// - Note: Isolation: a `Sendable` value.
/// - Complexity: O(1) to make and compare (plus the strings).
public struct Note: PersistableRecord, Equatable {
  /// The table holding notes.
  public static let tableName = "note"
  /// The note's id, 1 for the first note ever added to the file.
  public var id: Int
  /// The title; never empty.
  public var title: String
  /// Whether the note is pinned (added by schema version 2; notes written by version 1 are
  /// not pinned).
  public var pinned: Bool

  /// Makes a note.
  ///
  /// - Complexity: O(1).
  public init(id: Int, title: String, pinned: Bool = false) {
    self.id = id
    self.title = title
    self.pinned = pinned
  }
}

/// The Notes database's schema, by version.
///
/// - Version 1: the `note` table (id, title), and a one-row `notes_revision` table that
///   versions of the app before the deterministic runtime bumped in every write so that a
///   simulator could match the observed fetch to the writes it had seen (a shipped migration
///   is never edited, so it still creates it).
/// - Version 2: `note.pinned`, 0 for every existing note.
/// - Version 3: drops `notes_revision`: on the deterministic runtime the simulator needs
///   nothing from the app to match a fetch to its writes.
///
/// - Note: Isolation: constants; migrations run on the writer connection.
/// - Complexity: each migration O(1) (an `ALTER TABLE … ADD COLUMN` with a default does not
///   rewrite rows).
public enum NotesSchema {
  /// Schema version 1.
  public static let version1 = Migration(1, "create note and notes_revision") { tx in
    try tx.execute("CREATE TABLE note (id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
    try tx.execute(
      "CREATE TABLE notes_revision (id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL)")
    try tx.execute("INSERT INTO notes_revision (id, value) VALUES (1, 0)")
  }

  /// Schema version 2.
  public static let version2 = Migration(2, "add note.pinned") { tx in
    try tx.execute("ALTER TABLE note ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0")
  }

  /// Schema version 3.
  public static let version3 = Migration(3, "drop notes_revision") { tx in
    try tx.execute("DROP TABLE notes_revision")
  }

  /// Every migration, in order.
  public static let migrations = [version1, version2, version3]
}

/// What the Notes app reports when an operation cannot be carried out.
///
/// - Note: Isolation: a `Sendable` value.
public enum NotesError: Error, Sendable, Equatable, CustomStringConvertible {
  /// A note index outside the list (1-based).
  case noNote(index: Int, count: Int)
  /// The editor has no valid title to save.
  case invalidTitle(String)
  /// The file has no `note` table (not a Notes database?).
  case noNoteTable

  public var description: String {
    switch self {
    case .noNote(let index, let count):
      count == 0
        ? "there is no note \(index): the list is empty"
        : "there is no note \(index): the list has notes 1...\(count)"
    case .invalidTitle(let message): "the note cannot be saved: \(message)"
    case .noNoteTable: "the database has no note table (not a Notes database?)"
    }
  }
}
