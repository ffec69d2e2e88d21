/// What to fetch: which records (a predicate), in which order, and how many.
///
/// ```swift
/// let latest = FetchDescriptor<Insight>(
///   where: Field("userID") == user.id, sortBy: [.descending("createdAt")], limit: 5)
/// let insights = try await database.fetchAll(latest)
/// ```
///
/// - Complexity: the query is O(log n + k) with an index on the predicate's fields (see
///   `DatabaseTransaction.createIndex`), O(n) without, n = rows, k = rows returned; sorting on an
///   unindexed field adds O(k log k).
/// - Note: Isolation: a `Sendable` value.
public struct FetchDescriptor<Record: PersistableRecord>: Sendable {
  /// The condition; `nil` fetches every record.
  public var predicate: RecordPredicate?
  /// Sort order, most significant first. Without one the order is unspecified.
  public var sortBy: [Sort]
  /// The largest number of records to return.
  public var limit: Int?
  /// How many matching records to skip first.
  public var offset: Int?

  /// Describes a fetch.
  public init(
    where predicate: RecordPredicate? = nil, sortBy: [Sort] = [], limit: Int? = nil,
    offset: Int? = nil
  ) {
    self.predicate = predicate
    self.sortBy = sortBy
    self.limit = limit
    self.offset = offset
  }
}

/// One sort key: a field and a direction.
///
/// - Note: Isolation: a `Sendable` value.
public struct Sort: Sendable, Hashable {
  /// The field to sort on.
  public var field: Field
  /// Smallest first when `true`.
  public var ascending: Bool

  /// Sorts on `field` in the given direction.
  public init(_ field: Field, ascending: Bool = true) {
    self.field = field
    self.ascending = ascending
  }

  /// Smallest first. NULLs come first, as in SQLite.
  ///
  /// - Complexity: O(1).
  public static func ascending(_ name: String) -> Sort { Sort(Field(name), ascending: true) }
  /// Largest first. NULLs come last.
  ///
  /// - Complexity: O(1).
  public static func descending(_ name: String) -> Sort { Sort(Field(name), ascending: false) }
}
