/// One result row of a raw SQL query: values in column order, readable by name.
///
/// ```swift
/// let rows = try await database.read { try $0.rows("PRAGMA integrity_check") }
/// rows.first?["integrity_check"]  // .text("ok")
/// ```
///
/// - Complexity: subscripting by name is O(c), c = columns; by position O(1).
/// - Note: Isolation: a `Sendable` value.
public struct Row: Sendable, Hashable {
  /// Column names, in order.
  public var columns: [String]
  /// Values, in column order.
  public var values: [DatabaseValue]

  /// Makes a row from its columns and values (same count).
  public init(columns: [String], values: [DatabaseValue]) {
    self.columns = columns
    self.values = values
  }

  /// The value of the first column named `name` (case-insensitive), or `nil`.
  public subscript(_ name: String) -> DatabaseValue? {
    if let index = columns.firstIndex(of: name) { return values[index] }
    let lowered = name.lowercased()
    return columns.firstIndex { $0.lowercased() == lowered }.map { values[$0] }
  }

  /// The value at column position `index`.
  public subscript(_ index: Int) -> DatabaseValue { values[index] }
}
