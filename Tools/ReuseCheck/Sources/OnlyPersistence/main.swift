// A consumer of WeftPersistence alone: one record saved and read back in memory.
import WeftPersistence

struct Note: PersistableRecord {
  static let tableName = "note"
  var id: Int
  var text: String
}

let database = try await Database.inMemory(
  migrations: [
    Migration(1, "notes") { tx in
      _ = try tx.execute("CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
    }
  ])
try await database.save(Note(id: 1, text: "hello"))
print(try await database.fetch(Note.self, id: 1)?.text ?? "missing")
await database.close()
