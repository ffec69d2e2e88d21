import Synchronization
import Testing

@testable import WeftCore

/// A MainActor subscription released with a delivery pending is reported in debug builds
/// (issue 28: core.md's example, pasted into a nonisolated function, printed nothing).
@Suite("Released subscriptions")
struct ReleasedSubscriptionTests {
  struct Count: Sendable, Equatable {
    var value = 0
  }

  /// Collects the reports whose text names `cell` (other suites may report at the same time).
  final class Reports: Sendable {
    private let lines = Mutex<[String]>([])
    func collect(_ line: String) { lines.withLock { $0.append(line) } }
    func about(_ name: String) -> [String] { lines.withLock { $0.filter { $0.contains(name) } } }
  }

  @Test @MainActor func releasingWithADeliveryPendingIsReported() {
    let reports = Reports()
    WeftDiagnostics.handler = reports.collect
    defer { WeftDiagnostics.handler = nil }
    let cell = StateCell(Count(), name: "ReleasedPending")
    var token: StateSubscription? = cell.observeOnMainActor(\.value) { _ in }
    cell.update { $0.value = 1 }  // the MainActor job cannot run before this function returns
    #expect(token?.isCancelled == false)
    token = nil
    #expect(reports.about("ReleasedPending").count == 1)
    #expect(reports.about("ReleasedPending").first?.contains("Keep the StateSubscription") == true)
  }

  @Test @MainActor func cancellingOnPurposeOrReleasingAfterDeliveryIsQuiet() async {
    let reports = Reports()
    WeftDiagnostics.handler = reports.collect
    defer { WeftDiagnostics.handler = nil }
    let cell = StateCell(Count(), name: "ReleasedQuiet")
    let cancelled = cell.observeOnMainActor(\.value) { _ in }
    cell.update { $0.value = 1 }
    cancelled.cancel()  // on purpose: no report

    var delivered = 0
    var token: StateSubscription? = cell.observeOnMainActor(\.value) { _ in delivered += 1 }
    cell.update { $0.value = 2 }
    cell.deliverPendingMainActorChanges()  // delivered: nothing is pending any more
    #expect(delivered == 1)
    token = nil
    #expect(token == nil)
    #expect(reports.about("ReleasedQuiet").isEmpty)
  }
}
