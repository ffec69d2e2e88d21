/// One SQLite value: what a column holds and what a `?` parameter binds.
///
/// ```swift
/// try tx.execute("UPDATE metric SET value = ? WHERE id = ?", [.real(72.5), "m-1"])
/// ```
///
/// Models never need this type: the record coder maps `Int`, `Double`, `Bool`, `String`,
/// `Date` (seconds since 1970, as a real), `UUID` (text), `Data` (blob), optionals (NULL)
/// and raw-value enums to it, and any other nested `Codable` value to JSON text.
///
/// - Complexity: O(1) to make and compare, except `.text`/`.blob` equality, O(n) in length.
/// - Note: Isolation: a `Sendable` value.
/// - Note: Allocations: none beyond the payload's own storage.
public enum DatabaseValue: Sendable, Hashable {
  /// SQL NULL.
  case null
  /// A 64-bit signed integer.
  case integer(Int64)
  /// A 64-bit floating-point number.
  case real(Double)
  /// UTF-8 text.
  case text(String)
  /// Raw bytes.
  case blob([UInt8])
}

extension DatabaseValue: CustomStringConvertible {
  /// The value as it would read in a message: `NULL`, `42`, `72.5`, `'text'`, `<3 bytes>`.
  public var description: String {
    switch self {
    case .null: "NULL"
    case .integer(let value): String(value)
    case .real(let value): String(value)
    case .text(let value): "'\(value)'"
    case .blob(let bytes): "<\(bytes.count) bytes>"
    }
  }
}

extension DatabaseValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral
{
  public init(nilLiteral: ()) { self = .null }
  public init(integerLiteral value: Int64) { self = .integer(value) }
  public init(floatLiteral value: Double) { self = .real(value) }
  public init(stringLiteral value: String) { self = .text(value) }
  public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}
