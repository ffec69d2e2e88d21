import WeftCore

/// The latency from a commit to the last view it affected re-rendering, summarized: how many
/// samples, p50, p95, p99 and max, in nanoseconds.
///
/// Build one from the runner's `Histogram`; percentiles are within 6.25% of the true value (the
/// histogram's bucket width).
///
/// - Complexity: O(1) to store; `init(_: Histogram)` is O(b), b = histogram buckets.
/// - Note: Isolation: a value; `Sendable`.
public struct LatencyStats: Sendable, Equatable, Codable {
  /// Number of samples (commits that affected at least one view).
  public var count: UInt64
  /// Median, in nanoseconds.
  public var p50Nanoseconds: UInt64
  /// 95th percentile, in nanoseconds.
  public var p95Nanoseconds: UInt64
  /// 99th percentile, in nanoseconds.
  public var p99Nanoseconds: UInt64
  /// Largest sample, in nanoseconds.
  public var maxNanoseconds: UInt64

  /// No samples.
  public static let empty = LatencyStats(count: 0, p50: 0, p95: 0, p99: 0, max: 0)

  /// Makes a summary from its figures, in nanoseconds.
  public init(count: UInt64, p50: UInt64, p95: UInt64, p99: UInt64, max: UInt64) {
    self.count = count
    self.p50Nanoseconds = p50
    self.p95Nanoseconds = p95
    self.p99Nanoseconds = p99
    self.maxNanoseconds = max
  }

  /// Summarizes a histogram of latencies.
  public init(_ histogram: Histogram) {
    self.init(
      count: histogram.count, p50: histogram.percentileNanoseconds(0.5),
      p95: histogram.percentileNanoseconds(0.95), p99: histogram.percentileNanoseconds(0.99),
      max: histogram.maxNanoseconds)
  }

  /// Converts WeftCore's `LatencySummary`.
  public init(_ summary: LatencySummary) {
    self.init(
      count: summary.count, p50: summary.p50.nanosecondsClamped,
      p95: summary.p95.nanosecondsClamped, p99: summary.p99.nanosecondsClamped,
      max: summary.max.nanosecondsClamped)
  }

  /// Combines two summaries without their samples: counts add, and each percentile is the
  /// larger of the two — an upper bound, exact only for the max. Merge histograms (see
  /// ``MetricsAccumulator``) when exact percentiles of the union matter.
  ///
  /// - Complexity: O(1).
  public func mergingUpperBound(_ other: LatencyStats) -> LatencyStats {
    if other.count == 0 { return self }
    if count == 0 { return other }
    return LatencyStats(
      count: count &+ other.count, p50: Swift.max(p50Nanoseconds, other.p50Nanoseconds),
      p95: Swift.max(p95Nanoseconds, other.p95Nanoseconds),
      p99: Swift.max(p99Nanoseconds, other.p99Nanoseconds),
      max: Swift.max(maxNanoseconds, other.maxNanoseconds))
  }
}

extension LatencyStats {
  /// The percentiles this many samples support, in order, with their values: `max` always,
  /// `p50` from 5 samples, `p95` from 20, `p99` from 100 — below that a "p99" is only the
  /// largest sample again, and a report that shows it claims a precision it does not have.
  ///
  /// - Complexity: O(1).
  var supportedPercentiles: [(name: String, nanoseconds: UInt64)] {
    var shown: [(name: String, nanoseconds: UInt64)] = []
    if count >= 5 { shown.append(("p50", p50Nanoseconds)) }
    if count >= 20 { shown.append(("p95", p95Nanoseconds)) }
    if count >= 100 { shown.append(("p99", p99Nanoseconds)) }
    if count > 0 { shown.append(("max", maxNanoseconds)) }
    return shown
  }
}
