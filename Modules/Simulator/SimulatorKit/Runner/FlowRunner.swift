import Foundation
import SimulatorFlow
import SimulatorReports
import WeftCore
import WeftRuntime

/// Runs a validated `Flow` against a `SimulatedApp`, step by step, and measures each step:
/// wall and CPU time, commits, deliveries, views re-rendered, skipped and wasted, delivery
/// jobs, SQL statements, allocations, commit-to-render latency and memory.
///
/// ```swift
/// let runner = FlowRunner(app: simulation, plugin: plugin, options: .init(explain: true))
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
  let plugin: SimulatorPlugin
  let options: Options
  let views = ViewPopulation()
  private var viewMemoryBytes: UInt64 = 0
  /// The windows of long source lines, made once per statement.
  private var windows = SourceWindows()
  /// The app's launch the views are subscribed to.
  private var launch = 0
  /// The tasks `together` blocks started.
  private let together: TogetherTasks
  /// The steps of the flow being run (shared storage, not a copy).
  private var flowSteps: [Step] = []

  /// Makes a runner for `app`, launched by `plugin` (whose commands its steps run).
  public init(app: any SimulatedApp, plugin: SimulatorPlugin, options: Options = Options()) {
    self.app = app
    self.plugin = plugin
    self.options = options
    self.together = TogetherTasks(plugin: plugin, app: app)
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
    launch = app.launchCount
    flowSteps = flow.steps
    _ = MemoryProbe.resetPeak()
    var start = flow.steps.startIndex
    while start < flow.steps.endIndex {
      // A `together` block's steps run as one group; any other step alone.
      var end = start + 1
      if let group = flow.steps[start].together {
        while end < flow.steps.endIndex, flow.steps[end].together == group { end += 1 }
      }
      let (reports, latencies) = await execute(flow.steps[start..<end])
      for (index, report) in zip(start..<end, reports) {
        let step = flow.steps[index]
        if let failure = failure(for: report, step: step) { failures.append(failure) }
        accumulator.add(report.metrics, latencies: latencies)
        steps.append(report)
        // A location, not the source line: a step on a long line must not copy it per step.
        options.trace?("\(index + 1) \(step.location) \(step.kind.command) | \(app.traceLine())")
        options.progress?(index + 1, flow.steps.count)
      }
      peakViews = max(peakViews, views.attachedCount)
      start = end
    }
    var total = accumulator.metrics
    total.attachedViews = UInt64(peakViews)
    total.viewMemoryBytes = viewMemoryBytes
    return RunReport(
      flow: flow.name ?? flow.file, file: flow.file, seed: flow.seed ?? 0,
      configuration: .current(
        viewsAttached: UInt64(peakViews),
        date: Date(timeIntervalSince1970: Double(RealClock.wallNanoseconds) / 1e9)), steps: steps,
      total: total,
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
        column: step.location.column, message: report.message ?? "step failed",
        cause: report.cause)
    default:
      nil
    }
  }

  /// What view memory is measured with: heap bytes in use where the allocator says
  /// (`MemoryProbe.heapBytesInUse`: the same every run), else resident memory (whole pages).
  static func viewMemoryProbe() -> UInt64? {
    MemoryProbe.heapBytesInUse() ?? MemoryProbe.residentBytes()
  }

  /// Runs one step — or a `together` block's steps, started at once and settled once —
  /// between two samples of every counter. The block's cost is its last step's; the other
  /// steps' reports carry their own failures only.
  private func execute(_ group: ArraySlice<Step>) async -> ([StepReport], Histogram) {
    views.beginStep()
    app.resetLatencies()
    let index = group.endIndex - 1
    let step = group[index]
    // A determinism check's job trace names the step each job ran in (nothing when off).
    DeterministicRuntime.current?.markJobTrace(
      "step \(index + 1), line \(step.location.line): \(step.sourceLine)")
    DeterministicRuntime.current?.nameRunningTask(ExploreTrace.runner)
    let window = windows.window(for: step)
    var others = group.dropLast().indices.map { position in
      StepReport(
        index: position, line: group[position].location.line,
        source: windows.rowText(for: group[position]))
    }
    var report = StepReport(
      index: index, line: step.location.line, source: windows.rowText(for: step))
    let before = app.counters()
    // Heap bytes in use are read around `views` steps only (what the view memory needs): a
    // read walks the allocator's arenas, several microseconds, on every step otherwise.
    let attaches: Bool
    if case .attachViews = step.kind { attaches = true } else { attaches = false }
    let heapBefore = attaches ? Self.viewMemoryProbe() ?? 0 : 0
    // Sampled last before the step and first after it, so the runner's own probes and
    // counters are not counted as the step's allocations.
    let allocationsBefore = AllocationCounter.linked?.allocations
    let wallStart = RealClock.monotonicNanoseconds  // real: the app's clocks may be virtual
    let cpuStart = CPUClock.process.now()

    if step.together != nil {
      let tasks = together.start(group)
      if plugin.scheduling == .threaded {
        for task in tasks { await task.value }
      }
    } else {
      do throws(SimulationError) {
        try await perform(step, window: window, into: &report)
      } catch {
        report.status = .errored
        report.message = step.diagnostic(error.message, window: window)
        report.cause = error.kind.name
      }
    }
    await app.settle()
    for failure in together.takeFailures() {
      // A task of this block fails its own step; one of an earlier block that was still
      // waiting when its block settled fails the step during which it ended.
      let position = failure.stepIndex - group.startIndex
      let origin = group.indices.contains(failure.stepIndex) ? nil : failure.stepIndex
      if let origin, flowSteps.indices.contains(origin) {
        note(failure.error, of: flowSteps[origin], into: &report)
      } else if position >= 0, position < others.count {
        note(failure.error, of: group[failure.stepIndex], into: &others[position])
      } else {
        note(failure.error, of: step, into: &report)
      }
    }
    views.renderInvalidated()
    if let failure = app.takeFailure(), report.status == .passed {
      report.status = .errored
      report.message = step.diagnostic(failure.message, window: window)
      report.cause = failure.kind.name
    }
    followRelaunch(step, window: window, into: &report)

    let cpu = CPUClock.process.now() &- cpuStart
    let wall = RealClock.monotonicNanoseconds &- wallStart
    let allocationsAfter = AllocationCounter.linked?.allocations
    let counters = app.counters().since(before)
    let latencies = app.latencies()
    let totals = views.stepTotals
    var metrics = StepMetrics()
    metrics.wallNanoseconds = wall
    metrics.cpuNanoseconds = cpu
    metrics.commits = counters.commits
    metrics.deliveries = counters.deliveries
    metrics.mainActorJobs = counters.mainActorJobs
    metrics.mainActorDeliveries = counters.mainActorDeliveries
    metrics.mainActorDeliveryNanoseconds = counters.mainActorDeliveryNanoseconds
    metrics.databaseNanoseconds = counters.databaseNanoseconds
    metrics.sqlStatements = counters.sqlStatements
    metrics.viewsRerendered = totals.renders
    metrics.viewsSkipped =
      UInt64(views.attachedCount) &- min(UInt64(views.attachedCount), totals.distinct)
    metrics.wastedRenders = totals.wasted
    metrics.latency = LatencyStats(latencies)
    metrics.peakMemoryBytes = MemoryProbe.peakResidentBytes() ?? 0
    metrics.attachedViews = UInt64(views.attachedCount)
    if let allocationsBefore, let after = allocationsAfter {
      metrics.allocations = after &- allocationsBefore
    }
    if attaches {
      let after = Self.viewMemoryProbe() ?? heapBefore
      let grown = after > heapBefore ? after - heapBefore : 0
      viewMemoryBytes &+= min(grown, UInt64(Int64.max))
      metrics.viewMemoryBytes = viewMemoryBytes
    }
    report.metrics = metrics
    if options.explain { report.explain = views.causes }
    return (others + [report], latencies)
  }

  /// Records a `together` task's failure on `report`, rendered at the task's own step.
  private func note(_ error: SimulationError, of origin: Step, into report: inout StepReport) {
    let message = origin.diagnostic(error.message)
    if report.status == .passed {
      report.status = .errored
      report.cause = error.kind.name
      report.message = message
    } else {
      report.message = (report.message.map { $0 + "\n" } ?? "") + message
    }
  }

  /// After `app.relaunch` the views' subscriptions belong to the torn-down app: move every
  /// group to the relaunched app's observable of its path (its views then show the new
  /// app's value, a render when it differs), or detach the group and say so in the step's
  /// message when the path is gone. Views are never left silently showing stale values.
  private func followRelaunch(_ step: Step, window: LineWindow, into report: inout StepReport) {
    let current = app.launchCount
    guard current != launch else { return }
    launch = current
    let detached = views.follow { [app] path in app.observable(named: path) }
    guard !detached.isEmpty else { return }
    let names = detached.map { "'\($0.name)' (\($0.count) views of \($0.path))" }
    let note =
      "the relaunched app has no observable for view group(s) \(names.joined(separator: ", ")); "
      + "they were detached"
    report.message = report.message.map { $0 + "\n" + note } ?? note
  }

  private func perform(
    _ step: Step, window: LineWindow, into report: inout StepReport
  ) async throws(SimulationError) {
    switch step.kind {
    case .attachViews(let count, let path, let name, let delivery):
      guard let observable = app.observable(named: path) else {
        throw SimulationError(unknownPathMessage(path), kind: .flow)
      }
      try views.attach(count, to: observable, as: name, via: delivery)
    case .detachViews(let name, let count):
      try views.detach(name, count: count)
    case .detachAllViews:
      views.detachAll()
    case .expect(let condition):
      guard let observable = app.observable(named: condition.path) else {
        throw SimulationError(unknownPathMessage(condition.path), kind: .flow)
      }
      // No settle of its own: the runner settled after the step before (one settle per step,
      // owned by the runner), so nothing has run since that the value could be missing.
      let actual = observable.read()
      if let failure = app.takeFailure() { throw failure }
      if !ConditionEvaluator.holds(condition, for: actual) {
        let shown = SourceWindows.clipped(observable.display(actual))
        report.status = .failed
        report.expectation = ExpectationOutcome(
          subject: condition.path, expected: Self.expectedText(condition), actual: shown)
        report.message = step.diagnostic(
          "expectation failed: \(condition.path) is \(shown), expected "
            + "\(condition.op.rawValue) \(Self.valueText(condition))"
            + PendingTimersHint.text(pending: app.pendingTimerCount, condition: condition),
          window: window)
      }
    case .wait(let condition, let timeout):
      guard let observable = app.observable(named: condition.path) else {
        throw SimulationError(unknownPathMessage(condition.path), kind: .flow)
      }
      let outcome = await app.waitOutcome(
        until: { ConditionEvaluator.holds(condition, for: observable.read()) }, timeout: timeout)
      let quietAfter: Duration?
      switch outcome {
      case .held: return
      case .failed(let error): throw error
      case .timedOut(let quiet): quietAfter = quiet
      }
      let shown = SourceWindows.clipped(observable.readForDisplay())
      let waited = timeout.map { DurationText.format($0) } ?? "the default 1h"
      let why = quietAfter.map {
        "; nothing was left to run after \(DurationText.format($0)) of it, so the condition "
          + "could not change" + Self.waitersClause()
      }
      report.status = .failed
      report.expectation = ExpectationOutcome(
        subject: condition.path, expected: Self.expectedText(condition), actual: shown)
      report.message = step.diagnostic(
        "timed out waiting for \(condition.path) \(condition.op.rawValue) "
          + "\(Self.valueText(condition)) (after \(waited) of virtual time\(why ?? ""); now \(shown))",
        window: window)
    case .log(let text):
      report.message = text
    case .advanceClock(let duration):
      try await app.advanceClock(by: duration)
    case .app(let appStep):
      try await plugin.perform(appStep, on: app)
    }
  }

  /// `; tasks last seen suspending on a continuation that nothing resumed: 'name' (task 7)`
  /// when the runtime saw any (what a wait with nothing left to run may be waiting for).
  static func waitersClause() -> String {
    DeterministicRuntime.current?.continuationWaitersSummary.map { "; " + $0 } ?? ""
  }

  /// The expected side as the report prints it after the subject (`== 72`, `contains x`).
  static func expectedText(_ condition: StepKind.Condition) -> String {
    condition.op == .equal
      ? valueText(condition) : "\(condition.op.rawValue) \(valueText(condition))"
  }

  /// The condition's value as written, clipped like every value a report shows.
  static func valueText(_ condition: StepKind.Condition) -> String {
    SourceWindows.clipped("\(condition.value)")
  }

  private func unknownPathMessage(_ path: String) -> String {
    let names = app.observablePathNames
    if let nearest = Suggestion.nearest(to: path, among: names) {
      return "unknown observable '\(path)'; did you mean '\(nearest.word)'?"
    }
    return "unknown observable '\(path)'"
  }
}
