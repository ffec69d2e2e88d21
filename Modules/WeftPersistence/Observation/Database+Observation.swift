extension Database {
  /// Observes a fetch: delivers its result now, then again after every committed write
  /// that changes a table the fetch reads.
  ///
  /// ```swift
  /// for try await summary in database.observe({ db in try Summary(db) }) {
  ///   await MainActor.run { dashboard.summary = summary }   // only the result hops over
  /// }
  /// ```
  ///
  /// The tables come from `tables` plus those the fetch actually reads (SQLite reports them
  /// when each statement is compiled), so raw SQL is observed correctly too. When a fetch
  /// reads a table the observation did not know yet, it is registered and the fetch runs
  /// again before anything is delivered (so `tables` only saves that first extra fetch).
  ///
  /// > Important: Coalescing: a burst of commits during one fetch causes one re-fetch, not
  /// > one per commit, and a consumer slower than the fetches receives only the latest
  /// > value (the stream buffers one). Intermediate values may be skipped; the value after
  /// > the last commit never is. Equal consecutive values are delivered unless you pass
  /// > `isDuplicate` (for example `isDuplicate: ==`): the default never hides a re-fetch.
  ///
  /// The stream ends with an error if a fetch throws, ends when the database closes, and
  /// stops its work as soon as the consumer stops iterating.
  ///
  /// - Parameters:
  ///   - tables: tables to watch besides those the fetch reads.
  ///   - isDuplicate: when it returns `true` for the previous and the new value, the new
  ///     one is not delivered.
  ///   - fetch: runs on a reader connection, never on the MainActor.
  /// - Complexity: a commit touching none of the fetch's tables costs it nothing; one that
  ///   does costs one re-fetch (shared by every commit during that fetch).
  /// - Note: Isolation: fetches run on reader connections; values are delivered to whichever
  ///   isolation iterates the stream.
  /// - Note: Allocations: one task, two streams and a registration per observation; per
  ///   re-fetch, the fetch's own allocations.
  public func observe<Value: Sendable>(
    tables: Set<String> = [],
    isDuplicate: (@Sendable (Value, Value) -> Bool)? = nil,
    _ fetch: @escaping @Sendable (ReadContext) throws -> Value
  ) -> AsyncThrowingStream<Value, any Error> {
    let (output, deliver) = AsyncThrowingStream.makeStream(
      of: Value.self, throwing: (any Error).self, bufferingPolicy: .bufferingNewest(1))
    let (signals, wake) = AsyncStream.makeStream(
      of: Void.self, bufferingPolicy: .bufferingNewest(1))
    let declared = Set(tables.map { $0.lowercased() })
    guard let id = observations.register(tables: declared, signal: wake) else {
      deliver.finish(throwing: PersistenceError.closed(path: path))
      return output
    }
    wake.yield()  // the initial fetch
    let route = readRoute
    let observations = observations
    let counters = counters
    let monitor = environment.monitor
    let task = Task {
      defer { observations.unregister(id) }
      var region = declared
      var last: Value?
      for await _ in signals {
        if Task.isCancelled { break }
        do {
          counters.observationFetches.add(1, ordering: .relaxed)
          monitor?.record(jobs: 1)
          let (value, read) = try await route.read(fetch, tracking: true)
          if let read, !read.isSubset(of: region) {
            // The fetch read tables it was not registered for: a commit to them may have
            // landed before the wider registration. Fetch again rather than deliver this.
            region.formUnion(read)
            observations.update(id, tables: region)
            wake.yield()
            continue
          }
          if let previous = last, let isDuplicate, isDuplicate(previous, value) { continue }
          last = value
          counters.observationDeliveries.add(1, ordering: .relaxed)
          monitor?.record(deliveries: 1)
          deliver.yield(value)
        } catch is CancellationError {
          break
        } catch {
          deliver.finish(throwing: error)
          return
        }
      }
      deliver.finish()
    }
    observations.attach(task, to: id)
    deliver.onTermination = { _ in
      wake.finish()
      task.cancel()
    }
    return output
  }

  /// Observes the records matching `descriptor`: delivers them now and after every commit
  /// that changes their table.
  ///
  /// - Complexity: per re-fetch, as `fetchAll(_:)`.
  /// - Note: Isolation: as `observe(tables:isDuplicate:_:)`.
  public func observe<R: PersistableRecord>(
    _ descriptor: FetchDescriptor<R>
  )
    -> AsyncThrowingStream<[R], any Error>
  {
    observe(tables: [R.tableName]) { db in try db.fetchAll(descriptor) }
  }
}
