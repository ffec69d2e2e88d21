import Synchronization
import Testing
import WeftCore

@testable import SimulatorFlow
@testable import SimulatorKit
@testable import SimulatorReports

@Suite("Flow runner")
@MainActor
struct FlowRunnerTests {
  func run(_ source: String, explain: Bool = true) async throws -> (RunReport, FakeApp) {
    let app = FakeApp()
    let flow = try Flow.parse(
      source: source, file: "test.flow", knownPaths: Set(app.observablePathNames),
      options: FakeApp.options)
    let runner = FlowRunner(app: app, plugin: FakeApp.plugin, options: .init(explain: explain))
    let report = await runner.run(flow)
    runner.tearDown()
    return (report, app)
  }

  /// Two steps on one line (`a ; b`) are two rows, each with its own text; a step alone on
  /// its line shows the line.
  @Test func stepsSharingALineShowTheirOwnText() async throws {
    let (report, _) = try await run("tab home ; tab away\n  tab home  \n")
    #expect(report.steps.map(\.source) == ["tab home", "tab away", "  tab home  "])
    #expect(report.steps.map(\.line) == [1, 1, 2])
  }

  @Test func countsRerendersAndSkipsPerStep() async throws {
    let (report, _) = try await run(
      """
      views 100 observe fake.a
      views 10 observe fake.b
      tab home
      """)
    let step = report.steps[2]
    #expect(step.status == .passed)
    #expect(step.metrics.viewsRerendered == 100)
    #expect(step.metrics.viewsSkipped == 10)
    #expect(step.metrics.wastedRenders == 0)
    #expect(step.metrics.commits == 1)
    #expect(step.metrics.mainActorJobs == 1)
    #expect(step.explain.count == 1)
    #expect(step.explain.first?.views == 100)
    #expect(step.explain.first?.commitVersions == [1])
    #expect(report.exitCode == 0)
  }

  @Test func aCommitThatChangesNothingRendersNothing() async throws {
    let (report, _) = try await run(
      """
      views 50 observe fake.a
      sheet present settings
      """)
    #expect(report.steps[1].metrics.commits == 1)
    #expect(report.steps[1].metrics.viewsRerendered == 0)
    #expect(report.steps[1].metrics.viewsSkipped == 50)
  }

  @Test func rendersOfAnUnchangedValueAreFlaggedWasted() async throws {
    // fake.count delivers on every commit, changed or not.
    let (report, _) = try await run(
      """
      views 5 observe fake.count
      sheet present settings
      """)
    let step = report.steps[1]
    #expect(step.metrics.viewsRerendered == 5)
    #expect(step.metrics.wastedRenders == 5)
    #expect(step.explain.first?.isWasted == true)
  }

  @Test func failedExpectationShowsExpectedAndActual() async throws {
    let (report, _) = try await run(
      """
      tab home
      expect fake.a == away
      expect fake.a == home
      """)
    #expect(report.steps[1].status == .failed)
    #expect(report.steps[1].expectation?.expected == "away")
    #expect(report.steps[1].expectation?.actual == "home")
    #expect(report.steps[2].status == .passed)
    #expect(report.failures.count == 1)
    #expect(report.exitCode == 1)
    #expect(
      report.steps[1].message
        == """
        test.flow:2:1: error: expectation failed: fake.a is home, expected == away
            2 | expect fake.a == away
              | ^~~~~~~~~~~~~~~~~~~~~
        """)
  }

  @Test func aStepThatMisusesTheAppFailsWithoutStoppingTheRun() async throws {
    let (report, _) = try await run(
      """
      alert dismiss
      tab next
      expect fake.a == next
      """)
    #expect(report.steps[0].status == .errored)
    #expect(report.steps[0].message?.contains("no alert is presented") == true)
    #expect(report.steps[2].status == .passed)
    #expect(report.exitCode == 1)
  }

  @Test func detachedViewsStopRendering() async throws {
    let (report, _) = try await run(
      """
      views 20 observe fake.a as list
      views detach list 15
      tab one
      views detach list
      tab two
      """)
    #expect(report.steps[2].metrics.viewsRerendered == 5)
    #expect(report.steps[4].metrics.viewsRerendered == 0)
    #expect(report.steps[4].metrics.attachedViews == 0)
  }

  @Test func unknownViewGroupIsAnErrorNamingTheGroups() throws {
    let population = ViewPopulation()
    let app = FakeApp()
    try population.attach(1, to: app.observable(named: "fake.a")!, as: "list")
    #expect(throws: SimulationError("no view group named 'lists' (groups: list)")) {
      try population.detach("lists", count: nil)
    }
    #expect(
      throws: SimulationError(
        "view group 'list' observes 'fake.a', not 'fake.b'; name the new group differently with `as NAME`"
      )
    ) {
      try population.attach(1, to: app.observable(named: "fake.b")!, as: "list")
    }
    population.detachAll()
  }

  @Test func sameFlowGivesTheSameTrace() async throws {
    let source = """
      views 3 observe fake.a
      repeat 5 { tab t$i ; sheet dismiss }
      navigate push deep
      """
    func trace() async throws -> [String] {
      let app = FakeApp()
      let lines = TraceRecorder()
      let flow = try Flow.parse(
        source: source, knownPaths: Set(app.observablePathNames), options: FakeApp.options)
      let runner = FlowRunner(
        app: app, plugin: FakeApp.plugin, options: .init(trace: { lines.append($0) }))
      _ = await runner.run(flow)
      runner.tearDown()
      return lines.lines
    }
    let first = try await trace()
    #expect(first.count == 12)
    // A location and the command, not the source line (issue 18: long lines per step).
    #expect(first.last == "12 <flow>:3:1 navigate push | fake.a=t5 fake.b=deep fake.count=5")
    #expect(try await trace() == first)
  }

  @Test func viewsAndRunnerAreFreedAfterTearDown() async throws {
    weak var weakView: CountingView?
    let app = FakeApp()
    do {
      let flow = try Flow.parse(
        source: "views 10 observe fake.a", knownPaths: Set(app.observablePathNames))
      let runner = FlowRunner(app: app, plugin: FakeApp.plugin)
      _ = await runner.run(flow)
      weakView = runner.views.groups.first?.views.first
      #expect(weakView != nil)
      runner.tearDown()
    }
    #expect(weakView == nil)
    #expect(app.cell.subscriberCount == 0)
  }
}

final class TraceRecorder: Sendable {
  private let storage = Mutex<[String]>([])
  func append(_ line: String) { storage.withLock { $0.append(line) } }
  var lines: [String] { storage.withLock { $0 } }
}

/// `together { ... }`: each command of the block runs as its own task; a failing one fails
/// its own step (rendered at its own column), the others still run, and the block's cost is
/// on its last row.
@Suite("Flow runner: together blocks")
@MainActor
struct TogetherRunnerTests {
  @Test func everyCommandRunsAndAFailureStaysOnItsOwnStep() async throws {
    let (report, app) = try await FlowRunnerTests().run(
      """
      together { tab one ; alert dismiss ; sheet dismiss }
      repeat 3 together { sheet dismiss }
      expect fake.count == 4
      """)
    #expect(report.steps.count == 7)
    #expect(
      report.steps.map(\.status) == [.passed, .errored] + Array(repeating: .passed, count: 5))
    let message = try #require(report.steps[1].message)
    #expect(message.hasPrefix("test.flow:1:22: error: no alert is presented"), "\(message)")
    #expect(app.cell.state.a == "one")
    #expect(app.cell.state.count == 4)
    #expect(report.failures.map(\.line) == [1])
    // One measurement per block, on its last row.
    #expect(report.steps[0].metrics.commits == 0)
    #expect(report.steps[2].metrics.commits == 2)
    #expect(report.steps[5].metrics.commits == 3)
  }

  @Test func tasksAreNamedAfterTheirCommandAndLine() throws {
    let flow = try Flow.parse(
      source: "repeat 2 together { sheet dismiss }\ntogether { tab a }", file: "test.flow",
      knownPaths: nil, options: FakeApp.options)
    #expect(
      flow.steps.map(TogetherTasks.taskName) == [
        "sheet dismiss (line 1, iteration 1)", "sheet dismiss (line 1, iteration 2)",
        "tab (line 2)",
      ])
  }
}
