import HealthSimulator
import Testing
import WeftContexts
import WeftCore

@testable import SimulatorFlow
@testable import SimulatorKit
@testable import SimulatorReports

/// `views N observe PATH via observation` (issue 14): views that read a path through the
/// Observation bridge, next to views that take WeftCore's callbacks, in one flow.
/// Kept serialized, no longer for WeftCore's engine state (each launch of the health app
/// now owns its monitor and delivery queue) but because this suite runs apps on threads in
/// this process, where a settle is a best effort (nothing committed for 20 ms): its runs side
/// by side starve each other's settles under load, and the counts it checks move (seen once,
/// at load 16: `viewsFollowTheRelaunchedApp` counted 10 re-renders instead of 5).
@Suite("Views via observation", .serialized)
@MainActor
struct ObservationViewsTests {
  func run(_ source: String) async throws -> (RunReport, FlowRunner) {
    let app = try await HealthSimulation.make(seed: 1)
    let flow = try Flow.parse(
      source: source, file: "observation.flow", knownPaths: Set(app.observablePathNames),
      options: FlowTesting.options())
    let runner = FlowRunner(
      app: app, plugin: HealthSimulation.plugin, options: .init(explain: true))
    let report = await runner.run(flow)
    await app.shutDown()
    return (report, runner)
  }

  @Test func parsesTheDeliveryAndAName() throws {
    #expect(
      try FlowTesting.kinds("views 10 observe form.value via observation as shown")
        == [.attachViews(count: 10, path: "form.value", name: "shown", delivery: .observation)])
    #expect(
      try FlowTesting.kinds("views 3 observe form.value via observation")
        == [.attachViews(count: 3, path: "form.value", name: "form.value", delivery: .observation)])
    #expect(
      try FlowTesting.kinds("views 3 observe form.value")
        == [.attachViews(count: 3, path: "form.value", name: "form.value", delivery: .callbacks)])
    let error = try #require(FlowTesting.error("views 3 observe form.value via callbacks"))
    #expect(error.description.contains("expected 'observation', got 'callbacks'"))
    #expect(FlowTesting.error("views 3 observe form.value via") != nil)
  }

  @Test func bothDeliveryPathsRenderTheSameChangesSideBySide() async throws {
    let (report, runner) = try await run(
      """
      views 100 observe form.value as callbacks
      views 100 observe form.value via observation as observed
      views 50 observe form.notes via observation as idle
      form.set value=72
      form.set value=73
      """)
    defer { runner.tearDown() }
    #expect(report.steps.allSatisfy { $0.status == .passed })
    for index in [3, 4] {
      let step = report.steps[index]
      #expect(step.metrics.viewsRerendered == 200)
      #expect(step.metrics.viewsSkipped == 50)
      #expect(step.metrics.wastedRenders == 0)
      let causes = step.explain.map(\.selector)
      #expect(causes.count == 2)
      #expect(causes.filter { $0.hasSuffix(" via observation") }.count == 1)
      #expect(step.explain.allSatisfy { $0.views == 100 && $0.commitVersions.count == 1 })
      #expect(Set(step.explain.map(\.commitVersions)).count == 1)
    }
    let observed = try #require(runner.views.observationGroups.first { $0.name == "observed" })
    #expect(observed.count == 100)
  }

  @Test func anEqualValueCommitInvalidatesNoObservingView() async throws {
    let (report, runner) = try await run(
      """
      views 20 observe form.value via observation
      form.set value=72
      form.set value=72
      form.set notes=hello
      """)
    defer { runner.tearDown() }
    #expect(report.steps[1].metrics.viewsRerendered == 20)
    #expect(report.steps[2].metrics.viewsRerendered == 0)
    #expect(report.steps[2].explain.isEmpty)
    #expect(report.steps[3].metrics.viewsRerendered == 0)
  }

  @Test func detachedObservingViewsRenderNoMore() async throws {
    let (report, runner) = try await run(
      """
      views 30 observe form.value via observation as shown
      views detach shown 10
      form.set value=5
      views detach shown
      form.set value=6
      """)
    defer { runner.tearDown() }
    #expect(report.steps[2].metrics.viewsRerendered == 20)
    #expect(report.steps[2].metrics.attachedViews == 20)
    #expect(report.steps[4].metrics.viewsRerendered == 0)
    #expect(runner.views.observationGroups.isEmpty)
  }

  @Test func observingViewsAreHeadlessViewsOfTheGroupsWindow() async throws {
    let (report, runner) = try await run(
      """
      views 30 observe form.value via observation as shown
      views detach shown 10
      form.set value=5
      """)
    defer { runner.tearDown() }
    #expect(report.steps[2].metrics.viewsRerendered == 20)
    let group = try #require(runner.views.observationGroups.first)
    #expect(group.window.name == "shown")
    #expect(group.window.viewCount == 20)
    #expect(group.window.rootViews.allSatisfy { $0 is ObservationView })
    // 30 attach renders (tracked, not counted by the step), then one render for each of the
    // 20 views still attached.
    #expect(group.window.renderCount == 50)
  }

  @Test func aGroupNameKeepsItsDelivery() async throws {
    let (report, runner) = try await run(
      """
      views 2 observe form.value as shown
      views 2 observe form.value via observation as shown
      """)
    defer { runner.tearDown() }
    #expect(report.steps[1].status == .errored)
    #expect(
      report.steps[1].message?.contains(
        "view group 'shown' observes 'form.value', not 'form.value' via observation") == true)
  }

  @Test func observingViewsFollowTheRelaunchedApp() async throws {
    let (report, runner) = try await run(
      """
      login email=ada@example.com password=correct-horse
      views 10 observe auth.state via observation as auth
      views 5 observe app.tab via observation as tab
      app.relaunch
      logout
      tab insights
      """)
    defer { runner.tearDown() }
    #expect(report.steps.allSatisfy { $0.status == .passed })
    // The groups read the relaunched app's model: its commits invalidate them.
    #expect(report.steps[4].metrics.viewsRerendered == 10)
    #expect(report.steps[5].metrics.viewsRerendered == 5)
    #expect(runner.views.observationGroups.map(\.count) == [10, 5])
  }

  @Test func aPathWithoutAStateCellSaysSo() async throws {
    let app = FakeApp()
    let flow = try Flow.parse(
      source: "views 2 observe fake.a via observation", file: "test.flow",
      knownPaths: Set(app.observablePathNames), options: FakeApp.options)
    let runner = FlowRunner(app: app, plugin: FakeApp.plugin)
    let report = await runner.run(flow)
    runner.tearDown()
    #expect(report.steps[0].status == .errored)
    #expect(report.steps[0].message?.contains("cannot be observed via observation") == true)
  }

  @Test func releasingAGroupFreesItsModelAndViews() async throws {
    weak var released: ObservationViewGroup?
    do {
      let (_, runner) = try await run(
        """
        views 5 observe form.value via observation as shown
        form.set value=9
        """)
      released = runner.views.observationGroups.first
      #expect(released != nil)
      runner.tearDown()
    }
    #expect(released == nil)
  }
}
