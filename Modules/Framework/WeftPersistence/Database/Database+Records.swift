extension Database {
  /// The record of `type` with `id`, or `nil`. One read transaction.
  ///
  /// - Complexity: O(log n + f), n = rows, f = fields.
  public func fetch<R: PersistableRecord>(
    _ type: R.Type, id: R.ID
  ) async throws(PersistenceError) -> R? {
    try await read { (db) throws(PersistenceError) in try db.fetch(type, id: id) }
  }

  /// Every record matching `descriptor`. One read transaction.
  ///
  /// - Complexity: O(log n + k·f) with an index on the predicate's fields, O(n + k·f)
  ///   without; k = records returned.
  public func fetchAll<R: PersistableRecord>(
    _ descriptor: FetchDescriptor<R>
  ) async throws(PersistenceError) -> [R] {
    try await read { (db) throws(PersistenceError) in try db.fetchAll(descriptor) }
  }

  /// Every record of `type` matching `predicate`, sorted and limited. One read transaction.
  ///
  /// - Complexity: as `fetchAll(_:)` with a descriptor.
  public func fetchAll<R: PersistableRecord>(
    _ type: R.Type, where predicate: RecordPredicate? = nil, sortBy: [Sort] = [], limit: Int? = nil,
    offset: Int? = nil
  ) async throws(PersistenceError) -> [R] {
    let descriptor = FetchDescriptor<R>(
      where: predicate, sortBy: sortBy, limit: limit, offset: offset)
    return try await read { (db) throws(PersistenceError) in try db.fetchAll(descriptor) }
  }

  /// How many records of `type` match `predicate`. One read transaction.
  ///
  /// - Complexity: O(log n + k) with an index on the predicate's fields, O(n) without.
  public func count<R: PersistableRecord>(
    _ type: R.Type, where predicate: RecordPredicate? = nil
  )
    async throws(PersistenceError) -> Int
  {
    try await read { (db) throws(PersistenceError) in try db.count(type, where: predicate) }
  }

  /// Saves one record in its own write transaction. Batch many saves in one `write`
  /// instead: each transaction costs a commit.
  ///
  /// - Complexity: O(f + log n), plus a commit.
  public func save<R: PersistableRecord>(_ record: R) async throws(PersistenceError) {
    try await write { (db) throws(PersistenceError) in try db.save(record) }
  }

  /// Deletes the record of `type` with `id` in its own write transaction; returns whether it
  /// existed.
  ///
  /// - Complexity: O(log n), plus a commit.
  @discardableResult
  public func delete<R: PersistableRecord>(
    _ type: R.Type, id: R.ID
  ) async throws(PersistenceError) -> Bool {
    try await write { (db) throws(PersistenceError) in try db.delete(type, id: id) }
  }
}
