/// One share of a gate split across machines: shard `index` of `count` (`--shard 2/4`).
///
/// The gate's work is a *plan*: the gated flow files sorted by path, then the fan-out ratio
/// probe (`fanout-ratio`) last. Item `i` of the plan (from 0) belongs to shard
/// `i mod count + 1`, so every machine that lists the same flows computes the same shares, a
/// share never depends on timing or on the other shards, and adding a flow moves only the items
/// after it. The recorded flows that are in no shard's plan (thresholds for a flow that is
/// gone) are judged by shard 1 alone, so merging the shards reports them exactly once.
///
/// ```swift
/// let shard = GateShard(index: 2, count: 4)!
/// shard.share(of: ["a", "b", "c", "d", "e"])  // ["b"]
/// shard.description                           // "2/4"
/// ```
///
/// - Note: Isolation: a value; `Sendable`.
public struct GateShard: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
  /// The shard's number, from 1.
  public var index: Int
  /// How many shards the gate is split into.
  public var count: Int

  /// Makes a shard, or `nil` unless `1 <= index <= count`.
  public init?(index: Int, count: Int) {
    guard count >= 1, index >= 1, index <= count else { return nil }
    self.index = index
    self.count = count
  }

  /// Reads `K/N` (`2/4`); `nil` when the text is not two whole numbers with
  /// `1 <= K <= N`.
  ///
  /// - Complexity: O(length of the text).
  public init?(parsing text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
      return nil
    }
    self.init(index: index, count: count)
  }

  /// `K/N`.
  public var description: String { "\(index)/\(count)" }

  /// Whether the plan's item at `position` (from 0) is this shard's.
  ///
  /// - Complexity: O(1).
  public func owns(position: Int) -> Bool { position % count == index - 1 }

  /// This shard's items of `plan`, in plan order.
  ///
  /// - Complexity: O(n), n = `plan.count`.
  public func share<Item>(of plan: [Item]) -> [Item] {
    plan.indices.filter(owns(position:)).map { plan[$0] }
  }

  /// The thresholds this shard judges against: `toolchain`'s flows narrowed to the shard's
  /// `flows`, and for shard 1 also the recorded flows outside `plan` (so exactly one shard
  /// reports each of them as not measured). The policy and the other toolchains stay, so the
  /// thresholds each shard regenerates differ only in `toolchain`'s flows.
  ///
  /// - Complexity: O(r), r = flows recorded for `toolchain`.
  public func thresholds(
    _ thresholds: GateThresholds, toolchain: String, flows: Set<String>, plan: Set<String>
  ) -> GateThresholds {
    guard let recorded = thresholds.toolchains[toolchain] else { return thresholds }
    var narrowed = thresholds
    narrowed.toolchains[toolchain] = ToolchainThresholds(
      flows: recorded.flows.filter { flow, _ in
        flows.contains(flow) || (index == 1 && !plan.contains(flow))
      })
    return narrowed
  }

  /// Orders by count, then index.
  public static func < (lhs: GateShard, rhs: GateShard) -> Bool {
    (lhs.count, lhs.index) < (rhs.count, rhs.index)
  }
}
