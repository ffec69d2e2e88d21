/// What a `read` closure receives: fetches on one connection, inside one read transaction,
/// so every fetch in the closure sees the same committed snapshot. Its fetches, counts and
/// raw rows are `DatabaseReading`'s, shared with a write's `DatabaseTransaction`.
///
/// ```swift
/// let (count, latest) = try await database.read { db in
///   (try db.count(Metric.self), try db.fetchAll(Metric.self, sortBy: [.descending("at")], limit: 10))
/// }
/// ```
///
/// > Important: Use it only inside the closure that received it: it is not `Sendable`, so
/// > the compiler keeps it from escaping to another task.
///
/// - Note: Isolation: runs on a reader connection's serial executor (never the MainActor).
public struct ReadContext {
  let connection: Connection
}
