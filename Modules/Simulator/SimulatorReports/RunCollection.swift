/// Several runs' reports in one: what `weft-sim merge` makes of `run --json` reports (one per
/// flow, say from the machines of a CI matrix). Its JSON is `{"kind": "runs", "runs": [...],
/// "schemaVersion": 1, "tool": "weft-sim"}`, each run as `run --json` prints it; merging it
/// again with more runs gives one collection.
///
/// - Complexity: O(r) storage, r = the runs' reports.
/// - Note: Isolation: a value; `Sendable`.
public struct RunCollection: Sendable, Equatable, Codable {
  /// The JSON schema version this type writes and reads.
  public static let currentSchemaVersion = 1
  /// The `kind` field of its JSON.
  public static let kindName = "runs"

  /// Schema version of the collection.
  public var schemaVersion: Int
  /// Always `weft-sim`.
  public var tool: String
  /// Always `runs`.
  public var kind: String
  /// The runs, ordered by flow file.
  public var runs: [RunReport]

  /// Makes a collection of `runs`, in the order given.
  public init(runs: [RunReport]) {
    self.schemaVersion = Self.currentSchemaVersion
    self.tool = RunReport.toolName
    self.kind = Self.kindName
    self.runs = runs
  }

  /// Whether every run succeeded.
  public var succeeded: Bool { runs.allSatisfy(\.succeeded) }
  /// 0 when every run succeeded, 1 otherwise.
  public var exitCode: Int32 { succeeded ? 0 : 1 }
}
