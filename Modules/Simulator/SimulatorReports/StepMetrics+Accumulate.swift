import WeftCore

extension StepMetrics {
  /// Adds another step's metrics to these, as for a run's total: times and counts add (wrapping
  /// never happens in practice: 2⁶⁴ ns is 584 years); allocations add when either side counted
  /// them; peak memory, attached views and view memory take the larger; latency merges as an
  /// upper bound (see ``LatencyStats/mergingUpperBound(_:)``).
  ///
  /// Use ``MetricsAccumulator`` instead when you have each step's latency histogram: it merges
  /// the samples, so the total's percentiles are exact.
  ///
  /// - Complexity: O(1).
  public mutating func accumulate(_ other: StepMetrics) {
    wallNanoseconds &+= other.wallNanoseconds
    cpuNanoseconds &+= other.cpuNanoseconds
    commits &+= other.commits
    deliveries &+= other.deliveries
    viewsRerendered &+= other.viewsRerendered
    viewsSkipped &+= other.viewsSkipped
    wastedRenders &+= other.wastedRenders
    mainActorJobs &+= other.mainActorJobs
    mainActorDeliveries &+= other.mainActorDeliveries
    mainActorDeliveryNanoseconds &+= other.mainActorDeliveryNanoseconds
    databaseNanoseconds &+= other.databaseNanoseconds
    sqlStatements &+= other.sqlStatements
    switch (allocations, other.allocations) {
    case (let mine?, let theirs?): allocations = mine &+ theirs
    case (nil, let theirs?): allocations = theirs
    default: break
    }
    latency = latency.mergingUpperBound(other.latency)
    peakMemoryBytes = max(peakMemoryBytes, other.peakMemoryBytes)
    attachedViews = max(attachedViews, other.attachedViews)
    viewMemoryBytes = max(viewMemoryBytes, other.viewMemoryBytes)
  }

  /// These metrics plus `other` (see ``accumulate(_:)``).
  ///
  /// - Complexity: O(1).
  public func accumulating(_ other: StepMetrics) -> StepMetrics {
    var sum = self
    sum.accumulate(other)
    return sum
  }

  /// The sum of many steps (see ``accumulate(_:)``).
  ///
  /// - Complexity: O(n), n = `steps.count`.
  public static func total(of steps: some Sequence<StepMetrics>) -> StepMetrics {
    steps.reduce(into: StepMetrics()) { $0.accumulate($1) }
  }
}

/// Sums step metrics into a run's total while merging the steps' latency histograms, so the
/// total's p50/p95/p99 are those of every sample, not a bound.
///
/// ```swift
/// var total = MetricsAccumulator()
/// for step in steps {
///   let (metrics, latencies) = try await run(step)
///   total.add(metrics, latencies: latencies)
/// }
/// report.total = total.metrics
/// ```
///
/// - Complexity: `add` is O(b), b = histogram buckets (1,024); `metrics` is O(b).
/// - Note: Isolation: a value; own it from one task.
/// - Note: Allocations: the merged histogram's buckets, once.
public struct MetricsAccumulator: Sendable {
  private var sum = StepMetrics()
  private var histogram = Histogram()
  private var withoutHistogram = LatencyStats.empty

  /// Makes an empty accumulator.
  public init() {}

  /// Adds one step. With `latencies`, its samples join the total's; without, the step's
  /// latency summary merges as an upper bound.
  public mutating func add(_ metrics: StepMetrics, latencies: Histogram? = nil) {
    sum.accumulate(metrics)
    if let latencies {
      histogram.merge(latencies)
    } else {
      withoutHistogram = withoutHistogram.mergingUpperBound(metrics.latency)
    }
  }

  /// The total so far.
  public var metrics: StepMetrics {
    var total = sum
    total.latency = LatencyStats(histogram).mergingUpperBound(withoutHistogram)
    return total
  }
}
