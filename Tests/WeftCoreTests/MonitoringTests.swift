import Testing

@testable import WeftCore

@Suite("Performance monitor")
struct PerformanceMonitorTests {
  @Test func disabledMonitorRecordsNothing() {
    let monitor = PerformanceMonitor(enabled: false)
    let cell = StateCell(Profile(), name: "quiet", monitor: monitor)
    let token = cell.observeSynchronously(\.visits) { _ in }
    cell.update { $0.visits = 1 }
    #expect(monitor.metrics(for: "quiet") == ComponentMetrics(name: "quiet"))
    token.cancel()
  }

  @Test func countsCommitsDeliveriesAndSkips() {
    let monitor = PerformanceMonitor(enabled: true)
    let cell = StateCell(Profile(), name: "counted", monitor: monitor)
    let tokens = [
      cell.observeSynchronously(\.visits) { _ in },
      cell.observeSynchronously(\.visits) { _ in },
      cell.observeSynchronously(\.name) { _ in },
    ]
    cell.update { $0.visits = 1 }  // 2 delivered, 1 skipped
    cell.update { $0.name = "x" }  // 1 delivered, 2 skipped
    let metrics = monitor.metrics(for: "counted")!
    #expect(metrics.commits == 2)
    #expect(metrics.deliveries == 3)
    #expect(metrics.skippedDeliveries == 3)
    monitor.reset()
    #expect(monitor.metrics(for: "counted")!.commits == 0)
    for token in tokens { token.cancel() }
  }

  @Test @MainActor func recordsCommitToMainActorLatency() {
    let monitor = PerformanceMonitor(enabled: true)
    let cell = StateCell(Profile(), name: "latency", monitor: monitor)
    let token = cell.observeOnMainActor(\.visits) { _ in }
    cell.update { $0.visits = 1 }
    cell.deliverPendingMainActorChanges()
    let metrics = monitor.metrics(for: "latency")!
    #expect(metrics.latency.count == 1)
    #expect(metrics.deliveryJobs == 1)
    token.cancel()
  }

  @Test @MainActor func timesTheMainActorJobsDeliveriesApartFromTheSynchronousOnes() {
    let monitor = PerformanceMonitor(enabled: true)
    let cell = StateCell(Profile(), name: "timed", monitor: monitor)
    let main = (0..<3).map { _ in cell.observeOnMainActor(\.visits) { _ in } }
    let sync = cell.observeSynchronously(\.visits) { _ in }
    cell.update { $0.visits = 1 }
    #expect(monitor.metrics(for: "timed")!.mainActorDeliveryTime == .zero)
    cell.deliverPendingMainActorChanges()
    let metrics = monitor.metrics(for: "timed")!
    #expect(metrics.deliveries == 4)
    #expect(metrics.mainActorDeliveries == 3)
    #expect(metrics.mainActorDeliveryTime > .zero)
    for token in main { token.cancel() }
    sync.cancel()
  }
}

@Suite("Histogram")
struct HistogramTests {
  @Test func percentilesAreWithinOneSixteenth() {
    var histogram = Histogram()
    for value in 1...10_000 { histogram.record(nanoseconds: UInt64(value)) }
    for (q, exact) in [(0.5, 5_000.0), (0.95, 9_500.0), (0.99, 9_900.0)] {
      let got = Double(histogram.percentileNanoseconds(q))
      #expect(abs(got - exact) / exact <= 1.0 / 16, "q=\(q): \(got) vs \(exact)")
    }
    #expect(histogram.maxNanoseconds == 10_000)
    #expect(histogram.minNanoseconds == 1)
    #expect(histogram.count == 10_000)
  }

  @Test func smallValuesAreExactAndMergeAddsCounts() {
    var a = Histogram()
    var b = Histogram()
    for value in [1, 2, 3] { a.record(nanoseconds: UInt64(value)) }
    for value in [4, 5] { b.record(nanoseconds: UInt64(value)) }
    a.merge(b)
    #expect(a.count == 5)
    #expect(a.percentileNanoseconds(0.5) == 3)
    #expect(a.percentileNanoseconds(1) == 5)
    #expect(Histogram().percentileNanoseconds(0.5) == 0)
  }

  @Test func bucketBoundsCoverEveryMagnitude() {
    for shift in 0..<63 {
      let value = UInt64(1) << UInt64(shift)
      let bucket = Histogram.bucket(of: value)
      #expect(Histogram.upperBound(of: bucket) >= value)
    }
  }
}

@Suite("Component registry")
struct ComponentRegistryTests {
  @Test func aViewWithTwoContextsIsReportedWithBothNames() {
    let registry = ComponentRegistry()
    let client = registry.register(.client, name: "AuthClient")
    let login = registry.register(.context, name: "LoginContext")
    let signup = registry.register(.context, name: "SignupContext")
    let view = registry.register(.view, name: "LoginView")
    registry.link(login, to: client)
    registry.link(view, to: login)
    #expect(registry.violations().isEmpty)
    registry.link(view, to: signup)
    #expect(
      registry.violations() == [
        .viewHasSeveralContexts(view: "LoginView", contexts: ["LoginContext", "SignupContext"])
      ])
    #expect(
      registry.violations().first?.description
        == "view 'LoginView' is linked to 2 contexts ('LoginContext', 'SignupContext'); "
        + "a view has exactly one context: compose the others into it")
    registry.unregister(signup)
    #expect(registry.violations().isEmpty)
  }

  @Test func cyclesAndUpwardLinksAreViolations() {
    let registry = ComponentRegistry()
    let a = registry.register(.context, name: "A")
    let b = registry.register(.context, name: "B")
    let client = registry.register(.client, name: "C")
    let view = registry.register(.view, name: "V")
    registry.link(a, to: b)
    registry.link(b, to: a)
    registry.link(client, to: a)
    registry.link(a, to: view)
    let found = registry.violations()
    #expect(found.contains(.cycle(["A", "B", "A"])))
    #expect(found.contains(.clientDependsOnUI(client: "C", dependency: "A")))
    #expect(found.contains(.contextDependsOnView(context: "A", view: "V")))
  }
}
