import Foundation

extension StepKind {
  /// `PATH OP VALUE`, as in `expect outbox.count == 0` and `wait auth.state == authenticated`.
  ///
  /// - Note: Isolation: a `Sendable` value.
  public struct Condition: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The dotted observable path, validated against the runner's known paths.
    public var path: String
    /// The comparison.
    public var op: ComparisonOperator
    /// The expected value.
    public var value: Value

    /// Creates a condition.
    ///
    /// - Complexity: O(1).
    public init(path: String, op: ComparisonOperator, value: Value) {
      self.path = path
      self.op = op
      self.value = value
    }

    /// The condition as a flow would spell it: `outbox.count == 0`.
    public var description: String { "\(path) \(op.rawValue) \(value)" }
  }

  /// A comparison in `expect` and `wait`. The ordering operators only accept numbers,
  /// durations and dates; `contains` tests a substring (or an element of a list).
  public enum ComparisonOperator: String, Sendable, Hashable, Codable, CaseIterable {
    /// `==`: the observed value equals the expected one.
    case equal = "=="
    /// `!=`: the observed value differs from the expected one.
    case notEqual = "!="
    /// `<`
    case less = "<"
    /// `<=`
    case lessOrEqual = "<="
    /// `>`
    case greater = ">"
    /// `>=`
    case greaterOrEqual = ">="
    /// `contains`: the observed text contains the expected text, or the observed list
    /// contains an element equal to the expected value.
    case contains

    /// Whether the operator orders its operands (`<`, `<=`, `>`, `>=`).
    public var isOrdering: Bool {
      switch self {
      case .less, .lessOrEqual, .greater, .greaterOrEqual: true
      case .equal, .notEqual, .contains: false
      }
    }
  }

  /// An expected value, typed by how it is written: `72` and `$(n * 2)` are numbers,
  /// `true`/`false`/`on`/`off` booleans, `5s` a duration, `2026-11-20` or `today-3d` a date,
  /// `"..."` a string, `nil` no value, and any other bare word (`authenticated`) a word —
  /// usually an enum case, compared with the observed value's name.
  ///
  /// - Note: Isolation: a `Sendable` value.
  public enum Value: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `72`, `-3.5`, `$(n * 2)`.
    case number(Double)
    /// `true`, `false`, `on`, `off`.
    case bool(Bool)
    /// `"text"`: compared as text.
    case string(String)
    /// A bare word such as `authenticated`: usually an enum case, compared with the observed
    /// value's name.
    case word(String)
    /// `250ms`, `5s`, `1h30m`.
    case duration(Duration)
    /// `2026-11-20`, `today-3d`, `now`, resolved against the parse options.
    case date(Date)
    /// `nil`: no value (an optional that is empty).
    case none

    /// The value as a flow would spell it (`72`, `"Walk more"`, `authenticated`, `5s`,
    /// `2026-11-20T08:30:00Z`, `nil`).
    public var description: String {
      switch self {
      case .number(let number): NumberText.format(number)
      case .bool(let bool): bool ? "true" : "false"
      case .string(let string):
        "\""
          + string.replacingOccurrences(of: "\\", with: "\\\\")
          .replacingOccurrences(of: "\"", with: "\\\"") + "\""
      case .word(let word): word
      case .duration(let duration): DurationText.format(duration)
      case .date(let date): date.formatted(.iso8601)
      case .none: "nil"
      }
    }
  }
}
