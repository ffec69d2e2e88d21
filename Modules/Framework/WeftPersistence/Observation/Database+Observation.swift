import WeftCore

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
  /// Re-fetches woken by the same commits run together: one job on one reader connection
  /// runs every dirty observation's fetch, one after another, in one read transaction (one
  /// snapshot, taken after the commits), and delivers each value as it comes. An
  /// observation is never re-fetched twice at once. Within that transaction the library's
  /// own queries (`count`, `fetchAll`, `fetch(_:id:)`) run once per distinct query (SQL,
  /// values, result type): observations running the identical query share the result.
  ///
  /// When a commit lands on an observation while it is being re-fetched (commits outpace
  /// re-fetches: a burst), the next re-fetch waits `Configuration.observationBurstInterval`
  /// (1 ms by default) and covers every commit meanwhile; isolated commits are re-fetched
  /// at once.
  ///
  /// The stream ends with an error if a fetch throws (the other observations carry on),
  /// ends when the database closes, and stops its work as soon as the consumer stops
  /// iterating. A fetch must only read: one that ends the read transaction itself (a raw
  /// `COMMIT`) ends its stream with `PersistenceError.sqlite` (`SQLITE_MISUSE`).
  ///
  /// - Parameters:
  ///   - tables: tables to watch besides those the fetch reads.
  ///   - isDuplicate: when it returns `true` for the previous and the new value, the new
  ///     one is not delivered. Runs right after the fetch, on the same reader connection.
  ///   - fetch: runs on a reader connection, never on the MainActor.
  /// - Complexity: a commit touching none of the fetch's tables costs it nothing; one that
  ///   does costs one re-fetch (shared by every commit during that fetch, and paced during
  ///   bursts), and the commit costs one hop to a reader and one read transaction for all
  ///   the observations it wakes.
  /// - Note: Isolation: fetches run on reader connections (the writer's for in-memory
  ///   databases); values are delivered to whichever isolation iterates the stream.
  /// - Note: Allocations: one stream and a registration per observation; per commit that
  ///   wakes observations, one task for the pass that re-fetches them; per re-fetch, the
  ///   fetch's own allocations.
  public func observe<Value: Sendable>(
    tables: Set<String> = [],
    isDuplicate: (@Sendable (Value, Value) -> Bool)? = nil,
    _ fetch: @escaping @Sendable (ReadContext) throws -> Value
  ) -> AsyncThrowingStream<Value, any Error> {
    let (output, deliver) = AsyncThrowingStream.makeStream(
      of: Value.self, throwing: (any Error).self, bufferingPolicy: .bufferingNewest(1))
    let declared = Set(tables.map { $0.lowercased() })
    let counters = counters
    let monitor = environment.monitor
    // The last value delivered, for `isDuplicate`. Re-fetches of one observation never
    // overlap (the center runs one at a time), so the lock is never contended.
    let last = Locked<Value?>(nil)
    let refresh: ObservationCenter.Refresh = { connection, region in
      counters.observationFetches.add(1, ordering: .relaxed)
      monitor?.record(jobs: 1)
      do {
        let (value, read) = try connection.sharedRead(fetch, lift: { $0 })
        // The fetch read tables it was not registered for: a commit to them may have landed
        // before the wider registration. The center widens it and fetches again.
        if !read.isSubset(of: region) { return .widened(read) }
        if let isDuplicate {
          let previous = last.withLock { $0 }
          if let previous, isDuplicate(previous, value) { return .current }
          last.withLock { $0 = value }
        }
        counters.observationDeliveries.add(1, ordering: .relaxed)
        monitor?.record(deliveries: 1)
        deliver.yield(value)
        return .current
      } catch is CancellationError {
        deliver.finish()
        return .ended
      } catch {
        deliver.finish(throwing: error)
        return .ended
      }
    }
    let end: ObservationCenter.End = { error in
      if let error { deliver.finish(throwing: error) } else { deliver.finish() }
    }
    guard
      let id = observations.register(
        tables: declared, route: readRoute, refresh: refresh, end: end)
    else {
      deliver.finish(throwing: PersistenceError.closed(path: path))
      return output
    }
    let observations = observations
    deliver.onTermination = { _ in observations.unregister(id) }
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
