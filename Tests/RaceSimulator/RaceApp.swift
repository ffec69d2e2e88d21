import Synchronization
import WeftCore

/// The race app's state: a counter and a feed that shows the latest refresh.
struct Ledger: Sendable, Equatable {
  var count = 0
  var requested = 0
  var shown = 0
  var signedIn = false
}

/// Owns the ledger.
actor LedgerClient: Client {
  nonisolated let cell = StateCell(Ledger(), name: "Ledger")
}

/// Another actor the slow increment awaits between its read and its write.
actor AuditLog {
  private(set) var entries = 0
  func record() { entries += 1 }
}

/// A backend whose answers take a fixed 100 ms, so two overlapping requests complete at the
/// same instant.
actor FeedBackend {
  func fetch(_ id: Int) async -> Int {
    try? await Task.sleep(for: .milliseconds(100))
    return id
  }
}

/// A callback-based sign-in service that loses the callback (planted bug 3, not a race: a
/// continuation nobody resumes).
final class CallbackSignIn: Sendable {
  private let forgotten = Mutex<[@Sendable (Bool) -> Void]>([])
  func signIn(_ completion: @escaping @Sendable (Bool) -> Void) {
    forgotten.withLock { $0.append(completion) }  // kept, never called
  }
}

/// The app, written as any app would be: plain tasks, actor hops and sleeps; no simulation
/// code.
@MainActor
final class RaceApp {
  let ledger = LedgerClient()
  let audit = AuditLog()
  let backend = FeedBackend()
  let signInService = CallbackSignIn()

  /// Planted bug 1 (a lost update), one half: reads the count, awaits the audit log, then
  /// writes back what it read plus one. When `add()` commits between the read and the write,
  /// its increment is lost.
  func addAudited() async {
    let value = ledger.snapshot.state.count
    await audit.record()
    await ledger.update { $0.count = value + 1 }
  }

  /// Planted bug 1, the other half: a little work, then one transaction that increments.
  func add() async {
    await Task.yield()  // a little work first
    await Task.yield()
    await ledger.update { $0.count += 1 }
  }

  /// Planted bug 2 (a stale response wins): each refresh asks for the next feed version and
  /// applies the answer when it arrives — in completion order, so when two overlapping
  /// answers arrive at the same instant in the other order, the older one overwrites the
  /// newer.
  func refresh() async {
    let id = await ledger.update { state in
      state.requested += 1
      return state.requested
    }
    let answer = await backend.fetch(id)
    await ledger.update { $0.shown = answer }
  }

  /// Planted bug 3 (a lost callback): a named task bridges the callback with a continuation
  /// that is never resumed, so `session.signedIn` never turns true.
  func signIn() {
    let ledger = self.ledger
    let service = signInService
    Task(name: "sign-in") {
      let ok = await withUnsafeContinuation { continuation in
        service.signIn { continuation.resume(returning: $0) }
      }
      await ledger.update { $0.signedIn = ok }
    }
  }
}
