/// A record field (a column) named in a predicate or a sort.
///
/// ```swift
/// let recent = Field("recordedAt") >= startOfWeek && Field("kind").in(["steps", "sleep"])
/// ```
///
/// The name must be a plain identifier (letters, digits, `_`, not starting with a digit): it
/// is checked and quoted when the predicate is compiled, and values are always bound as
/// parameters, never spliced into the SQL text.
///
/// - Complexity: O(1) to make.
/// - Note: Isolation: a `Sendable` value.
public struct Field: Sendable, Hashable, CustomStringConvertible {
  /// The column name, as the field's coding key spells it.
  public let name: String

  /// Names the field `name`.
  public init(_ name: String) { self.name = name }

  public var description: String { name }

  /// True when the field holds `nil` (SQL NULL).
  public var isNull: RecordPredicate { RecordPredicate(.isNull(self, negated: false)) }
  /// True when the field holds a value.
  public var isNotNull: RecordPredicate { RecordPredicate(.isNull(self, negated: true)) }

  /// True when the field equals one of `values`. An empty list matches nothing.
  ///
  /// - Complexity: O(v) to make, v = values; the query is O(v log n) with an index.
  public func `in`<Value: Encodable & Sendable>(_ values: [Value]) -> RecordPredicate {
    RecordPredicate(.isIn(self, values.map { $0 as any Encodable & Sendable }))
  }

  /// True when the text field contains `substring` (case-sensitive).
  ///
  /// - Complexity: O(1) to make; the query scans every row (`instr`, no index helps).
  public func contains(_ substring: String) -> RecordPredicate {
    RecordPredicate(.contains(self, substring))
  }

  /// True when the field, a collection stored as JSON (for example `[String]`), has an
  /// element equal to `element`.
  ///
  /// - Complexity: O(1) to make; the query parses each row's JSON (no index helps).
  public func containsElement<Value: Encodable & Sendable>(_ element: Value) -> RecordPredicate {
    RecordPredicate(.containsElement(self, element))
  }

  /// True when the text field starts with `prefix` (case-sensitive).
  ///
  /// - Complexity: O(1) to make; the query scans every row.
  public func hasPrefix(_ prefix: String) -> RecordPredicate {
    RecordPredicate(.hasPrefix(self, prefix))
  }
}

/// Comparisons between a field and a value. Each is O(1) to make; the query is
/// O(log n + k) when the field leads an index, O(n) otherwise.
extension Field {
  /// True when the field equals `value` (stored the way the record coder stores it).
  public static func == <Value: Encodable & Sendable>(lhs: Field, rhs: Value) -> RecordPredicate {
    RecordPredicate(.compare(lhs, .equal, rhs))
  }
  /// True when the field differs from `value`; a NULL field differs from every value, as
  /// `nil != value` is true in Swift.
  public static func != <Value: Encodable & Sendable>(lhs: Field, rhs: Value) -> RecordPredicate {
    RecordPredicate(.compare(lhs, .notEqual, rhs))
  }
  /// True when the field is less than `value`.
  public static func < <Value: Encodable & Sendable>(lhs: Field, rhs: Value) -> RecordPredicate {
    RecordPredicate(.compare(lhs, .less, rhs))
  }
  /// True when the field is less than or equal to `value`.
  public static func <= <Value: Encodable & Sendable>(lhs: Field, rhs: Value) -> RecordPredicate {
    RecordPredicate(.compare(lhs, .lessOrEqual, rhs))
  }
  /// True when the field is greater than `value`.
  public static func > <Value: Encodable & Sendable>(lhs: Field, rhs: Value) -> RecordPredicate {
    RecordPredicate(.compare(lhs, .greater, rhs))
  }
  /// True when the field is greater than or equal to `value`.
  public static func >= <Value: Encodable & Sendable>(lhs: Field, rhs: Value) -> RecordPredicate {
    RecordPredicate(.compare(lhs, .greaterOrEqual, rhs))
  }
  /// True when the field is NULL.
  public static func == (lhs: Field, rhs: _OptionalNilComparisonType) -> RecordPredicate {
    lhs.isNull
  }
  /// True when the field is not NULL.
  public static func != (lhs: Field, rhs: _OptionalNilComparisonType) -> RecordPredicate {
    lhs.isNotNull
  }
}
