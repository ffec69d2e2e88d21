/// A condition on a record's fields, compiled to an SQL `WHERE` clause whose values are all
/// bound parameters.
///
/// ```swift
/// let predicate = Field("kind") == "heartRate" && !(Field("value") < 40)
///   || Field("tags").containsElement("manual")
/// // WHERE (("kind" = ?1 AND NOT ("value" < ?2)) OR EXISTS (… json_each("tags") …))
/// ```
///
/// Operators: `==`, `!=`, `<`, `<=`, `>`, `>=` between a `Field` and a value; `in`,
/// `contains`, `hasPrefix`, `containsElement`, `isNull`; and `&&`, `||`, `!` between
/// predicates. Values are encoded exactly as record fields are (a `Date` compares as seconds
/// since 1970, an enum as its raw value), so comparing a field with a value of its own type
/// behaves as in Swift.
///
/// > Important: SQL compares NULL with three-valued logic. `==`, `<`, `in` and friends are
/// > false for a NULL field, like Swift's `nil == value`; `!=` is true, as in Swift. But
/// > `!(field < value)` is false for a NULL field (NOT of unknown), where Swift has no such
/// > case: test `isNull` explicitly when a field is optional.
///
/// - Complexity: compiling is O(n) in the number of nodes and values.
/// - Note: Isolation: a `Sendable` value.
public struct RecordPredicate: Sendable {
  indirect enum Node: Sendable {
    case compare(Field, Comparison, any Encodable & Sendable)
    case isNull(Field, negated: Bool)
    case isIn(Field, [any Encodable & Sendable])
    case contains(Field, String)
    case hasPrefix(Field, String)
    case containsElement(Field, any Encodable & Sendable)
    case and(Node, Node)
    case or(Node, Node)
    case not(Node)
    case constant(Bool)
  }

  enum Comparison: String, Sendable {
    case equal = "="
    case notEqual = "IS NOT"
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
  }

  let node: Node

  init(_ node: Node) { self.node = node }

  /// Matches every record.
  public static let all = RecordPredicate(.constant(true))
  /// Matches no record.
  public static let none = RecordPredicate(.constant(false))

  /// Both conditions hold.
  ///
  /// - Complexity: O(1).
  public static func && (lhs: RecordPredicate, rhs: RecordPredicate) -> RecordPredicate {
    RecordPredicate(.and(lhs.node, rhs.node))
  }
  /// At least one condition holds.
  ///
  /// - Complexity: O(1).
  public static func || (lhs: RecordPredicate, rhs: RecordPredicate) -> RecordPredicate {
    RecordPredicate(.or(lhs.node, rhs.node))
  }
  /// The condition does not hold (NULL comparisons stay false; see the type's note).
  ///
  /// - Complexity: O(1).
  public static prefix func ! (operand: RecordPredicate) -> RecordPredicate {
    RecordPredicate(.not(operand.node))
  }
}
