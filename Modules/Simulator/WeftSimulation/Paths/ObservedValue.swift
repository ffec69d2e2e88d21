/// A value the simulator observes at a path: small, `Sendable`, comparable, printable — the
/// one value type of the paths, the views and the flows (printed as flows write it: `nil`,
/// whole numbers without `.0`).
///
/// - Note: Isolation: a `Sendable` value.
/// - Complexity: O(1) to make and compare.
public enum ObservedValue: Sendable, Hashable, CustomStringConvertible {
  case int(Int)
  case double(Double)
  case string(String)
  case bool(Bool)
  /// No value (an optional that is nil).
  case none

  public var description: String {
    switch self {
    case .int(let value): String(value)
    case .double(let value):
      value.isFinite && value.rounded() == value && abs(value) < 1e15
        ? String(Int64(value)) : String(value)
    case .string(let value): value
    case .bool(let value): String(value)
    case .none: "nil"
    }
  }

  /// The value as a number, when it is one.
  public var number: Double? {
    switch self {
    case .int(let value): Double(value)
    case .double(let value): value
    case .string, .bool, .none: nil
    }
  }

  /// `.double(value)`, or `.none` for nil.
  ///
  /// - Complexity: O(1).
  public static func optional(_ value: Double?) -> ObservedValue { value.map(Self.double) ?? .none }

  /// `.string(value)`, or `.none` for nil.
  ///
  /// - Complexity: O(1).
  public static func optional(_ value: String?) -> ObservedValue { value.map(Self.string) ?? .none }

  /// `.int(value)`, or `.none` for nil.
  ///
  /// - Complexity: O(1).
  public static func optional(_ value: Int?) -> ObservedValue { value.map(Self.int) ?? .none }

  /// `.bool(value)`, or `.none` for nil.
  ///
  /// - Complexity: O(1).
  public static func optional(_ value: Bool?) -> ObservedValue { value.map(Self.bool) ?? .none }
}
