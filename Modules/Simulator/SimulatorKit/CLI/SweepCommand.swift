import Foundation
import SimulatorFlow
import SimulatorReports

/// `weft-sim sweep FLOW --views …`: the flow run at each size, to show how cost grows with N.
///
/// The flow's largest `views` group is resized so the flow attaches N views in all (other
/// groups keep their sizes: a flow with 99,999 idle views and 1 affected view becomes N − 1
/// and 1).
@MainActor
struct SweepCommand {
  let arguments: SweepArguments
  let plugin: SimulatorPlugin
  let output: Simulator.Output

  func run() async -> Int32 {
    var points: [SweepPoint] = []
    var last: RunReport?
    var failed = false
    for size in arguments.views {
      guard
        let (flow, app) = await Simulator.prepare(
          arguments.flow, seed: nil, plugin: plugin, output: output)
      else { return 2 }
      let report = await Simulator.execute(
        Self.scale(flow, to: size), on: app, plugin: plugin, explain: false, deterministic: false,
        trace: nil,
        progress: arguments.progress && !arguments.json, output: output)
      await Simulator.shutDown(app)
      if report.exitCode != 0 { failed = true }
      let point = Self.point(report, views: size)
      points.append(point)
      if arguments.progress && !arguments.json {
        output.error(
          "sweep: N = \(ReportUnits.count(UInt64(size))): "
            + "\(ReportUnits.duration(nanoseconds: point.perDeliveryNanoseconds)) per delivery, "
            + "\(ReportUnits.bytes(point.memoryPerViewBytes)) per view")
      }
      last = report
    }
    guard var report = last else { return 2 }
    report.sweep = SweepReport(points: points)
    output.standard(
      arguments.json ? JSONRenderer().render(report) : TableRenderer().render(report))
    if let html = arguments.html,
      !Simulator.write(HTMLRenderer().render(report), to: html, output: output)
    {
      return 2
    }
    return failed ? 1 : 0
  }

  /// `flow` with its largest view group resized so that N views are attached in all.
  static func scale(_ flow: Flow, to size: Int) -> Flow {
    var flow = flow
    let attaches = flow.steps.indices.compactMap { index -> (Int, Int)? in
      if case .attachViews(let count, _, _, _) = flow.steps[index].kind { return (index, count) }
      return nil
    }
    guard let largest = attaches.max(by: { $0.1 < $1.1 }) else { return flow }
    let others = attaches.reduce(0) { $0 + $1.1 } - largest.1
    if case .attachViews(_, let path, let name, let delivery) = flow.steps[largest.0].kind {
      flow.steps[largest.0].kind = .attachViews(
        count: max(1, size - others), path: path, name: name, delivery: delivery)
    }
    return flow
  }

  /// One sweep point: idle cost, the median CPU per commit of the steps that committed without
  /// re-rendering any view (a median: one step preempted mid-commit made a mean of 50 steps
  /// read 158 µs instead of 5); per-delivery cost over the steps that re-rendered views, less
  /// that idle cost per commit (so it is the marginal cost of one delivery, not the commit's
  /// fixed cost spread over N); fan-out per delivery, the MainActor jobs' delivering time
  /// per MainActor delivery over those steps (no hop, no subtraction: steady at small N);
  /// memory per attached view.
  static func point(_ report: RunReport, views: Int) -> SweepPoint {
    let measured = report.steps.filter { step in
      if step.source.trimmingCharacters(in: .whitespaces).hasPrefix("views") { return false }
      return step.metrics.viewsRerendered > 0
    }
    let idle = report.steps.filter {
      $0.metrics.viewsRerendered == 0 && $0.metrics.commits > 0
        && !$0.source.trimmingCharacters(in: .whitespaces).hasPrefix("views")
    }
    let deliveries = measured.reduce(UInt64(0)) { $0 + $1.metrics.viewsRerendered }
    let deliveryCPU = measured.reduce(UInt64(0)) { $0 + $1.metrics.cpuNanoseconds }
    let idleCost = median(
      idle.map { Double($0.metrics.cpuNanoseconds) / Double($0.metrics.commits) })
    let measuredCommits = measured.reduce(UInt64(0)) { $0 + $1.metrics.commits }
    let marginal = max(0, Double(deliveryCPU) - idleCost * Double(measuredCommits))
    let mainDeliveries = measured.reduce(UInt64(0)) { $0 + $1.metrics.mainActorDeliveries }
    let mainTime = measured.reduce(UInt64(0)) { $0 + $1.metrics.mainActorDeliveryNanoseconds }
    return SweepPoint(
      views: UInt64(views),
      perDeliveryNanoseconds: deliveries == 0 ? 0 : marginal / Double(deliveries),
      idleCostPerCommitNanoseconds: idleCost,
      memoryPerViewBytes: Double(report.total.viewMemoryBytes) / Double(max(views, 1)),
      wallNanoseconds: report.total.wallNanoseconds, cpuNanoseconds: report.total.cpuNanoseconds,
      fanOutPerDeliveryNanoseconds: mainDeliveries == 0
        ? nil : Double(mainTime) / Double(mainDeliveries))
  }

  /// The median of `values` (the mean of the middle two for an even count); 0 when empty.
  static func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2)
      ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
  }
}
