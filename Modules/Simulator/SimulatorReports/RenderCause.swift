/// Why a group of views re-rendered in one step: which selector changed, from which commits,
/// how many views it re-rendered, and how many of those renders were wasted (the new value
/// equalled the previous one). `--explain` prints these.
///
/// - Complexity: O(1) storage plus the commit list.
/// - Note: Isolation: a value; `Sendable`.
public struct RenderCause: Sendable, Equatable, Codable {
  /// The selector that changed: a key path (`\DashboardState.summary`) or a projection name.
  public var selector: String
  /// The versions of the commits that changed it during the step, ascending, without repeats.
  public var commitVersions: [UInt64]
  /// Views it re-rendered.
  public var views: UInt64
  /// Of those, re-renders whose value equalled the previous one.
  public var wastedRenders: UInt64

  /// Makes a cause from its parts.
  public init(selector: String, commitVersions: [UInt64], views: UInt64, wastedRenders: UInt64) {
    self.selector = selector
    self.commitVersions = commitVersions
    self.views = views
    self.wastedRenders = wastedRenders
  }

  /// Whether any of its renders was wasted.
  public var isWasted: Bool { wastedRenders > 0 }
}

/// Collects re-renders one at a time during a step and groups them into ``RenderCause``s by
/// selector.
///
/// ```swift
/// var tally = RenderCauseTally()
/// tally.record(selector: "\\DashboardState.summary", commit: 12, wasted: false)
/// step.explain = tally.causes
/// ```
///
/// - Complexity: `record` is O(1) expected; `causes` is O(s log s + c log c), s = selectors,
///   c = distinct commits.
/// - Note: Isolation: a value; own it from the task that observes renders.
public struct RenderCauseTally: Sendable, Equatable {
  private struct Entry: Sendable, Equatable {
    var commits: Set<UInt64> = []
    var views: UInt64 = 0
    var wasted: UInt64 = 0
  }

  private var entries: [String: Entry] = [:]

  /// Makes an empty tally.
  public init() {}

  /// Records that one view re-rendered because `selector` changed in commit `commit`;
  /// `wasted` says its new value equalled the previous one.
  public mutating func record(selector: String, commit: UInt64, wasted: Bool) {
    record(selector: selector, commit: commit, views: 1, wasted: wasted ? 1 : 0)
  }

  /// Records `views` re-renders at once, `wasted` of them wasted.
  public mutating func record(selector: String, commit: UInt64, views: UInt64, wasted: UInt64) {
    entries[selector, default: Entry()].commits.insert(commit)
    entries[selector, default: Entry()].views &+= views
    entries[selector, default: Entry()].wasted &+= wasted
  }

  /// Whether nothing was recorded.
  public var isEmpty: Bool { entries.isEmpty }

  /// The causes, most views first, then by selector: a stable order for equal reports.
  public var causes: [RenderCause] {
    entries.map { selector, entry in
      RenderCause(
        selector: selector, commitVersions: entry.commits.sorted(), views: entry.views,
        wastedRenders: entry.wasted)
    }
    .sorted { $0.views != $1.views ? $0.views > $1.views : $0.selector < $1.selector }
  }
}
