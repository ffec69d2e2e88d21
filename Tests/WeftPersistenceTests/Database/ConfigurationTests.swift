import Dispatch
import Foundation
import Testing
import WeftCore
import WeftPersistence

@Suite struct ConfigurationTests {
  @Test func foreignKeysAreEnforced() async throws {
    let schema = Migration(1, "parent and child") { tx in
      try tx.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
      try tx.execute(
        "CREATE TABLE child (id INTEGER PRIMARY KEY, parent INTEGER NOT NULL REFERENCES parent(id))"
      )
    }
    try await withFileDatabase(migrations: [schema]) { database, folder in
      await #expect(
        throws: PersistenceError.constraintViolation(
          path: folder.file("test.sqlite"), table: nil, id: nil,
          detail: "FOREIGN KEY constraint failed")
      ) {
        try await database.write { tx in try tx.execute("INSERT INTO child VALUES (1, 99)") }
      }
    }
  }

  @Test func theMonitorSeesCommitsLatenciesAndDeliveries() async throws {
    let monitor = PerformanceMonitor(enabled: true)
    var configuration = Database.Configuration()
    configuration.monitor = monitor.component(named: "Database")
    try await withFileDatabase(configuration: configuration) { database, _ in
      var counts = database.observe { try $0.count(Metric.self) }.makeAsyncIterator()
      #expect(try await counts.next() == 0)
      try await database.save(Metric.sample(1))
      try await database.save(Metric.sample(2))
      var seen = 0
      while seen != 2, let value = try await counts.next() { seen = value }
      let metrics = try #require(monitor.metrics(for: "Database"))
      // Only transactions made through `write` count: opening and migrating do not.
      #expect(metrics.commits == 2)
      #expect(metrics.latency.count == 2)
      #expect(metrics.deliveries >= 2)
      #expect(metrics.deliveryJobs >= metrics.deliveries)
    }
  }

  /// A read waiting for a busy reader stops waiting when its task is cancelled.
  @Test func aWaitingReadCanBeCancelled() async throws {
    var configuration = Database.Configuration()
    configuration.maximumReaders = 1
    try await withFileDatabase(configuration: configuration) { database, _ in
      let inside = DispatchSemaphore(value: 0)
      let release = DispatchSemaphore(value: 0)
      // The bound only ends a broken run: it is never what the test waits for. CI's
      // full suite once took over 10 s to get from here to `release.signal()`.
      async let holding: Bool = database.read { _ in
        inside.signal()
        return release.wait(timeout: .now() + 120) == .success
      }
      await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
          inside.wait()
          continuation.resume()
        }
      }
      let waiting = Task { try await database.count(Metric.self) }
      waiting.cancel()
      let cancelled = await #expect(throws: PersistenceError.self) { try await waiting.value }
      #expect(cancelled?.kind == .cancelled)
      release.signal()
      let held = try await holding
      let count = try await database.count(Metric.self)
      #expect(held)
      #expect(count == 0)
    }
  }
}
