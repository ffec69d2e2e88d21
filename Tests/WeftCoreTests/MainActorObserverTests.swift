import Testing

@testable import WeftCore

/// Records what it receives; its state is MainActor-isolated, as `MainActorObserver` asks.
// `@unchecked Sendable` (restating the registration's): every stored property is
// `@MainActor`, so the compiler checks each access.
private final class Recording: MainActorObserver<Int>, @unchecked Sendable {
  @MainActor var changes: [Change<Int>] = []
  @MainActor var onReceive: (@MainActor (Change<Int>) -> Void)?

  @MainActor override func receive(_ change: Change<Int>) {
    changes.append(change)
    onReceive?(change)
  }
}

@Suite("MainActorObserver: a subscriber that is its own registration")
@MainActor
struct MainActorObserverTests {
  @Test func receivesEachBurstsLatestValueBesideClosureSubscribers() {
    let cell = StateCell(Profile())
    let observer = Recording()
    var closureSaw: [Int] = []
    let observing = cell.observeOnMainActor(\.visits, observer: observer)
    let closure = cell.observeOnMainActor(\.visits) { closureSaw.append($0.value) }
    for _ in 0..<3 { cell.update { $0.visits += 1 } }
    cell.deliverPendingMainActorChanges()
    cell.update { $0.name = "Ada" }  // another field: nothing to deliver
    cell.deliverPendingMainActorChanges()
    cell.update { $0.visits = 7 }
    cell.deliverPendingMainActorChanges()
    #expect(observer.changes == [Change(value: 3, version: 3), Change(value: 7, version: 5)])
    #expect(closureSaw == [3, 7])
    #expect(cell.subscriberCount == 2)
    observing.cancel()
    closure.cancel()
  }

  @Test func aBurstThatEndsWhereItStartedSkipsObserversAndClosuresAlike() {
    let monitor = PerformanceMonitor(enabled: true)
    let cell = StateCell(Profile(), name: "skips", monitor: monitor)
    let observer = Recording()
    let observing = cell.observeOnMainActor(\.visits, observer: observer)
    let closure = cell.observeOnMainActor(\.visits) { _ in }
    cell.update { $0.visits = 1 }
    cell.deliverPendingMainActorChanges()
    cell.update { $0.visits = 2 }
    cell.update { $0.visits = 1 }
    cell.deliverPendingMainActorChanges()
    #expect(observer.changes.map(\.value) == [1])
    let metrics = monitor.metrics(for: "skips")!
    #expect(metrics.mainActorDeliveries == 2)
    #expect(metrics.skippedDeliveries == 2)
    observing.cancel()
    closure.cancel()
  }

  @Test func cancellingOrReleasingTheSubscriptionStopsAndFreesTheObserver() {
    let cell = StateCell(Profile())
    weak var released: Recording?
    var subscription: StateSubscription?
    do {
      let observer = Recording()
      released = observer
      subscription = cell.observeOnMainActor(\.visits, observer: observer)
    }
    #expect(released != nil)  // the cell holds it while it is attached
    cell.update { $0.visits = 1 }
    cell.deliverPendingMainActorChanges()
    #expect(released?.changes.map(\.value) == [1])
    subscription = nil
    #expect(released == nil)
    #expect(cell.subscriberCount == 0)

    let kept = Recording()
    let cancelled = cell.observeOnMainActor(\.visits, observer: kept)
    cancelled.cancel()
    #expect(cancelled.isCancelled)
    cell.update { $0.visits = 2 }
    cell.deliverPendingMainActorChanges()
    #expect(kept.changes.isEmpty)
    _ = subscription
  }

  @Test func anObserverCancelledDuringADeliveryIsNotCalled() {
    let cell = StateCell(Profile())
    let first = Recording()
    let second = Recording()
    var secondSubscription: StateSubscription?
    first.onReceive = { _ in secondSubscription?.cancel() }
    let firstSubscription = cell.observeOnMainActor(\.visits, observer: first)
    secondSubscription = cell.observeOnMainActor(\.visits, observer: second)
    cell.update { $0.visits = 1 }
    cell.deliverPendingMainActorChanges()
    #expect(first.changes.count == 1)
    #expect(second.changes.isEmpty)
    firstSubscription.cancel()
  }

  @Test func attachingAnObserverTwiceTraps() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run {
        let cell = StateCell(Profile())
        let observer = MainActorObserver<Int>()
        let first = cell.observeOnMainActor(\.visits, observer: observer)
        first.cancel()
        _ = cell.observeOnMainActor(\.visits, observer: observer)
      }
    }
    let printed = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(printed.contains("an observer attaches once"), "stderr was: \(printed)")
  }
}
