import Foundation
import WeftCore

/// Runs a validated `Flow` against a `SimulatedApp`, step by step, and measures each step:
/// wall and CPU time, commits, deliveries, views re-rendered, skipped and wasted, delivery
/// jobs, SQL statements, allocations, commit-to-render latency and memory.
///
/// ```swift
/// let runner = FlowRunner(app: simulation, options: .init(explain: true))
/// let report = await runner.run(flow)
/// print(TableRenderer(explain: true).render(report))
/// ```
///
/// A step that fails (an expectation) or errs (a misused context, an unknown view group) is
/// recorded with its message and the run goes on; the report's exit code says whether
/// anything failed. Nothing a flow contains makes the runner trap.
///
/// - Note: Isolation: MainActor, so the views it attaches render where real views would.
@MainActor
public final class FlowRunner {
  /// What to record besides the metrics.
  public struct Options: Sendable {
    /// Group re-renders by cause per step (`--explain`).
    public var explain: Bool
    /// Receives one state-trace line per step (`--trace FILE`).
    public var trace: (@Sendable (String) -> Void)?
    /// Receives (finished steps, total steps) after each step (progress display).
    public var progress: (@Sendable (Int, Int) -> Void)?

    /// Makes options.
    public init(
      explain: Bool = false, trace: (@Sendable (String) -> Void)? = nil,
      progress: (@Sendable (Int, Int) -> Void)? = nil
    ) {
      self.explain = explain
      self.trace = trace
      self.progress = progress
    }
  }

  let app: any SimulatedApp
  let options: Options
  let views = ViewPopulation()
  private var viewMemoryBytes: UInt64 = 0

  /// Makes a runner for `app`.
  public init(app: any SimulatedApp, options: Options = Options()) {
    self.app = app
    self.options = options
  }

  /// Detaches every view the runner attached.
  public func tearDown() { views.detachAll() }

  /// Runs every step of `flow` and returns the report.
  ///
  /// - Complexity: the flow's own work plus O(g) per step, g = view groups.
  public func run(_ flow: Flow) async -> RunReport {
    var steps: [StepReport] = []
    var failures: [RunFailure] = []
    var accumulator = MetricsAccumulator()
    var peakViews = 0
    _ = MemoryProbe.resetPeak()
    for (index, step) in flow.steps.enumerated() {
      let (report, latencies) = await execute(step, index: index)
      if let failure = failure(for: report, step: step) { failures.append(failure) }
      accumulator.add(report.metrics, latencies: latencies)
      steps.append(report)
      peakViews = max(peakViews, views.attachedCount)
      options.trace?(
        "\(index + 1) \(step.sourceLine.trimmingCharacters(in: .whitespaces)) | \(app.traceLine())")
      options.progress?(index + 1, flow.steps.count)
    }
    var total = accumulator.metrics
    total.attachedViews = UInt64(peakViews)
    total.viewMemoryBytes = viewMemoryBytes
    return RunReport(
      flow: flow.name ?? flow.file, file: flow.file, seed: flow.seed ?? 0,
      configuration: .current(viewsAttached: UInt64(peakViews)), steps: steps, total: total,
      failures: failures)
  }

  private func failure(for report: StepReport, step: Step) -> RunFailure? {
    switch report.status {
    case .failed:
      RunFailure(
        kind: .expectation, step: report.index, line: step.location.line,
        column: step.location.column, message: report.message ?? "expectation failed",
        expectation: report.expectation)
    case .errored:
      RunFailure(
        kind: .error, step: report.index, line: step.location.line,
        column: step.location.column, message: report.message ?? "step failed")
    default:
      nil
    }
  }

  /// Runs one step between two samples of every counter.
  private func execute(_ step: Step, index: Int) async -> (StepReport, Histogram) {
    views.beginStep()
    app.resetLatencies()
    let before = app.counters()
    let allocationsBefore = AllocationCounter.linked?.allocations
    let residentBefore = MemoryProbe.residentBytes() ?? 0
    let wallStart = ContinuousClock.now
    let cpuStart = CPUClock.process.now()

    var report = StepReport(index: index, line: step.location.line, source: step.sourceLine)
    do throws(SimulationError) {
      try await perform(step, into: &report)
    } catch {
      report.status = .errored
      report.message = step.diagnostic(error.message)
    }
    await app.settle()

    let cpu = CPUClock.process.now() &- cpuStart
    let wall = wallStart.duration(to: .now).nanosecondsClamped
    let counters = app.counters().since(before)
    let latencies = app.latencies()
    let totals = views.stepTotals
    var metrics = StepMetrics()
    metrics.wallNanoseconds = wall
    metrics.cpuNanoseconds = cpu
    metrics.commits = counters.commits
    metrics.notificationsDelivered = counters.deliveries
    metrics.mainActorJobs = counters.deliveryJobs
    metrics.sqlStatements = counters.sqlStatements
    metrics.viewsRerendered = totals.renders
    metrics.viewsSkipped =
      UInt64(views.attachedCount) &- min(UInt64(views.attachedCount), totals.distinct)
    metrics.wastedRenders = totals.wasted
    metrics.latency = LatencyStats(latencies)
    metrics.peakMemoryBytes = MemoryProbe.peakResidentBytes() ?? 0
    metrics.attachedViews = UInt64(views.attachedCount)
    if let allocationsBefore, let after = AllocationCounter.linked?.allocations {
      metrics.allocations = after &- allocationsBefore
    }
    if case .attachViews = step.kind {
      let grown = (MemoryProbe.residentBytes() ?? residentBefore) &- residentBefore
      viewMemoryBytes &+= min(grown, UInt64(Int64.max))
      metrics.viewMemoryBytes = viewMemoryBytes
    }
    report.metrics = metrics
    if options.explain { report.explain = views.causes }
    return (report, latencies)
  }

  private func perform(_ step: Step, into report: inout StepReport) async throws(SimulationError) {
    switch step.kind {
    case .attachViews(let count, let path, let name):
      guard let observable = app.observable(named: path) else {
        throw SimulationError(unknownPathMessage(path))
      }
      try views.attach(count, to: observable, as: name)
    case .detachViews(let name, let count):
      try views.detach(name, count: count)
    case .detachAllViews:
      views.detachAll()
    case .expect(let condition):
      guard let observable = app.observable(named: condition.path) else {
        throw SimulationError(unknownPathMessage(condition.path))
      }
      await app.settle()
      let actual = observable.read()
      if !ConditionEvaluator.holds(condition, for: actual) {
        report.status = .failed
        report.expectation = ExpectationOutcome(
          subject: condition.path, expected: Self.expectedText(condition),
          actual: actual.description)
        report.message = step.diagnostic(
          "expectation failed: \(condition.path) is \(actual), expected \(condition.op.rawValue) "
            + "\(condition.value)")
      }
    case .wait(let condition, let timeout):
      guard let observable = app.observable(named: condition.path) else {
        throw SimulationError(unknownPathMessage(condition.path))
      }
      let held = await app.wait(
        until: { ConditionEvaluator.holds(condition, for: observable.read()) }, timeout: timeout)
      if !held {
        report.status = .failed
        report.expectation = ExpectationOutcome(
          subject: condition.path, expected: Self.expectedText(condition),
          actual: observable.read().description)
        report.message = step.diagnostic(
          "timed out waiting for \(condition) (after \(timeout.map { "\($0)" } ?? "no limit"); "
            + "now \(observable.read()))")
      }
    case .log(let text):
      report.message = text
    default:
      try await app.perform(step.kind)
    }
  }

  /// The expected side as the report prints it after the subject (`== 72`, `contains x`).
  static func expectedText(_ condition: StepKind.Condition) -> String {
    condition.op == .equal ? "\(condition.value)" : "\(condition.op.rawValue) \(condition.value)"
  }

  private func unknownPathMessage(_ path: String) -> String {
    let names = app.observablePathNames
    if let nearest = Suggestion.nearest(to: path, among: names) {
      return "unknown observable '\(path)'; did you mean '\(nearest.word)'?"
    }
    return "unknown observable '\(path)'"
  }
}
