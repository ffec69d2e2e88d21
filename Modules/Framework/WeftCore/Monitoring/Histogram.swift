/// A latency histogram with log-linear buckets: 16 sub-buckets per power of two of
/// nanoseconds, so any recorded value is reported within 1/16 (6.25%) of its true value.
///
/// ```swift
/// var histogram = Histogram()
/// histogram.record(.microseconds(18))
/// histogram.percentile(0.99)  // ≈ 18 µs
/// ```
///
/// - Complexity: `record` is O(1); `percentile` is O(b), b = 16 × 64 buckets at most.
/// - Note: Isolation: a value type; share it behind a lock or an actor.
/// - Note: Allocations: one array of 1,024 counters at the first `record`.
public struct Histogram: Sendable, Equatable {
  static let subBucketBits = 4
  static let subBuckets = 1 << subBucketBits

  private var counts: [UInt64] = []
  /// Number of recorded values.
  public private(set) var count: UInt64 = 0
  /// Smallest recorded value, in nanoseconds (0 when empty).
  public private(set) var minNanoseconds: UInt64 = 0
  /// Largest recorded value, in nanoseconds (0 when empty).
  public private(set) var maxNanoseconds: UInt64 = 0
  /// Sum of recorded values, in nanoseconds, saturating.
  public private(set) var sumNanoseconds: UInt64 = 0

  /// Makes an empty histogram.
  public init() {}

  /// Records one duration (negative durations count as zero).
  public mutating func record(_ duration: Duration) {
    record(nanoseconds: duration.nanosecondsClamped)
  }

  /// Records one value in nanoseconds.
  public mutating func record(nanoseconds value: UInt64) {
    if counts.isEmpty { counts = Array(repeating: 0, count: 64 * Self.subBuckets) }
    counts[Self.bucket(of: value)] += 1
    if count == 0 || value < minNanoseconds { minNanoseconds = value }
    if value > maxNanoseconds { maxNanoseconds = value }
    count += 1
    sumNanoseconds =
      sumNanoseconds.addingReportingOverflow(value).overflow
      ? .max : sumNanoseconds + value
  }

  /// Adds every value of `other` to this histogram.
  public mutating func merge(_ other: Histogram) {
    guard other.count > 0 else { return }
    if counts.isEmpty { counts = Array(repeating: 0, count: 64 * Self.subBuckets) }
    for index in other.counts.indices { counts[index] += other.counts[index] }
    minNanoseconds = count == 0 ? other.minNanoseconds : min(minNanoseconds, other.minNanoseconds)
    maxNanoseconds = max(maxNanoseconds, other.maxNanoseconds)
    count += other.count
    let (sum, overflow) = sumNanoseconds.addingReportingOverflow(other.sumNanoseconds)
    sumNanoseconds = overflow ? .max : sum
  }

  /// The value at quantile `q` (0...1), in nanoseconds: the upper bound of the bucket that
  /// holds it, clamped to the recorded maximum. 0 when empty.
  public func percentileNanoseconds(_ q: Double) -> UInt64 {
    guard count > 0 else { return 0 }
    let rank = max(1, UInt64((Double(count) * min(max(q, 0), 1)).rounded(.up)))
    var seen: UInt64 = 0
    for (index, bucketCount) in counts.enumerated() where bucketCount > 0 {
      seen += bucketCount
      if seen >= rank { return min(Self.upperBound(of: index), maxNanoseconds) }
    }
    return maxNanoseconds
  }

  /// The value at quantile `q` (0...1) as a `Duration`.
  public func percentile(_ q: Double) -> Duration { .nanoseconds(percentileNanoseconds(q)) }

  /// The common summary: p50, p95, p99 and max.
  public var summary: LatencySummary {
    LatencySummary(
      count: count, p50: percentile(0.5), p95: percentile(0.95), p99: percentile(0.99),
      max: .nanoseconds(maxNanoseconds))
  }

  static func bucket(of value: UInt64) -> Int {
    if value < UInt64(subBuckets) { return Int(value) }
    let magnitude = 63 - value.leadingZeroBitCount  // ≥ subBucketBits
    let shift = magnitude - subBucketBits
    let sub = Int((value >> UInt64(shift)) & UInt64(subBuckets - 1))
    return (shift + 1) * subBuckets + sub
  }

  static func upperBound(of bucket: Int) -> UInt64 {
    let group = bucket / subBuckets
    let sub = UInt64(bucket % subBuckets)
    if group == 0 { return sub }
    let shift = UInt64(group - 1)
    let base = (UInt64(subBuckets) + sub) << shift
    return base + (UInt64(1) << shift) - 1
  }
}

/// p50, p95, p99 and max of a set of latencies.
public struct LatencySummary: Sendable, Equatable, Codable {
  /// Number of samples.
  public var count: UInt64
  /// Median.
  public var p50: Duration
  /// 95th percentile.
  public var p95: Duration
  /// 99th percentile.
  public var p99: Duration
  /// Largest sample.
  public var max: Duration

  /// Makes a summary from its parts.
  public init(count: UInt64, p50: Duration, p95: Duration, p99: Duration, max: Duration) {
    self.count = count
    self.p50 = p50
    self.p95 = p95
    self.p99 = p99
    self.max = max
  }
}

extension Duration {
  /// Whole nanoseconds, clamped to 0...UInt64.max.
  package var nanosecondsClamped: UInt64 {
    let (seconds, attoseconds) = components
    if seconds < 0 || (seconds == 0 && attoseconds < 0) { return 0 }
    let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return .max }
    let (sum, overflow2) = whole.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000))
    return overflow2 ? .max : sum
  }
}
