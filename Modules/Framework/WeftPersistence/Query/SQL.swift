/// SQL written by hand, whose interpolated values are bound as parameters, never spliced
/// into the text.
///
/// ```swift
/// let name = "O'Brien"   // no escaping needed: it becomes a bound `?`
/// let rows = try db.fetchAll(
///   Author.self, sql: "SELECT * FROM author WHERE name = \(name) AND born > \(1900)")
/// // text: SELECT * FROM author WHERE name = ? AND born > ?    arguments: ['O''Brien', 1900]
/// ```
///
/// Every `\(value)` of an `Encodable` type becomes `?` with the value bound, stored as a
/// record field is (`Date` as REAL seconds, `UUID` as TEXT, …; `nil` as NULL). Identifiers
/// go through `\(identifier:)` (quoted), fragments through `\(sql:)` (their values stay
/// bound). Only a string literal makes an `SQL`: a `String` variable cannot, so user input
/// cannot reach the text by accident. `SQL(verbatim:)` is the explicit way to use a
/// computed text.
///
/// A value that cannot be encoded makes the query throw `PersistenceError.encodingFailed`
/// when it runs (an interpolation cannot throw). A `UUID` binds its canonical upper-case
/// text only: unlike a predicate, hand-written SQL does not also match a row another writer
/// stored in lower case (write `id IN (\(uuid), \(uuid.uuidString.lowercased()))` for that).
///
/// - Complexity: building is O(n) in the text and values; the text is the statement
///   cache's key, so the same literal with new values reuses one prepared statement.
/// - Note: Isolation: a `Sendable` value.
public struct SQL: Sendable, Hashable, ExpressibleByStringInterpolation {
  /// The statement text, with a `?` per bound value.
  public private(set) var text: String
  /// The values bound to the `?`s, in order.
  public private(set) var arguments: [DatabaseValue]
  /// Why a value could not be encoded, reported when the query runs.
  private(set) var encodingFailure: String?

  /// SQL from a literal without interpolations.
  ///
  /// - Complexity: O(1).
  public init(stringLiteral value: String) {
    text = value
    arguments = []
  }

  /// SQL from an interpolated literal: each value becomes a bound `?`.
  ///
  /// - Complexity: O(n) in the pieces.
  public init(stringInterpolation: Interpolation) {
    text = stringInterpolation.text
    arguments = stringInterpolation.arguments
    encodingFailure = stringInterpolation.encodingFailure
  }

  /// SQL from computed text and its arguments (bound to `?`, `?1`, … in the text). The text
  /// is used as given: never build it from user input.
  ///
  /// - Complexity: O(1).
  public init(verbatim text: String, arguments: [DatabaseValue] = []) {
    self.text = text
    self.arguments = arguments
  }

  /// The text and its bound values, or `encodingFailed` naming the value that failed.
  func checked(table: String?) throws(PersistenceError) -> (String, [DatabaseValue]) {
    if let encodingFailure {
      throw PersistenceError.encodingFailed(
        table: table ?? "", codingPath: "", detail: "interpolated value: " + encodingFailure)
    }
    return (text, arguments)
  }

  /// Builds an `SQL` piece by piece; see `SQL`.
  ///
  /// - Complexity: O(n) in the literal's pieces and values.
  /// - Note: Isolation: a local value of the literal being built.
  public struct Interpolation: StringInterpolationProtocol {
    var text = ""
    var arguments: [DatabaseValue] = []
    var encodingFailure: String?

    /// Reserves room for the literal.
    ///
    /// - Complexity: O(1).
    public init(literalCapacity: Int, interpolationCount: Int) {
      text.reserveCapacity(literalCapacity + interpolationCount)
    }

    /// Appends literal text.
    ///
    /// - Complexity: O(n) in `literal`.
    public mutating func appendLiteral(_ literal: String) { text += literal }

    /// Appends `?` and binds `value` to it (`nil` binds NULL).
    ///
    /// - Complexity: O(1) plus encoding the value.
    public mutating func appendInterpolation<Value: Encodable>(_ value: Value) {
      text += "?"
      do {
        arguments.append(try ColumnValue.encode(value, codingPath: []))
      } catch {
        arguments.append(.null)
        if encodingFailure == nil { encodingFailure = "\(Value.self): \(error)" }
      }
    }

    /// Appends `?` and binds `value`, or NULL for `nil`.
    ///
    /// - Complexity: O(1) plus encoding the value.
    public mutating func appendInterpolation<Value: Encodable>(_ value: Value?) {
      guard let value else {
        appendInterpolation(DatabaseValue.null)
        return
      }
      appendInterpolation(value)
    }

    /// Appends `?` bound to `value` as it is.
    ///
    /// - Complexity: O(1).
    public mutating func appendInterpolation(_ value: DatabaseValue) {
      text += "?"
      arguments.append(value)
    }

    /// Appends a quoted identifier (a table or column name): `"name"`, quotes doubled.
    ///
    /// - Complexity: O(n) in the name.
    public mutating func appendInterpolation(identifier: String) {
      text += SQLBuilder.quote(identifier)
    }

    /// Appends the quoted table name of `record`.
    ///
    /// - Complexity: O(n) in the name.
    public mutating func appendInterpolation<R: PersistableRecord>(table record: R.Type) {
      text += SQLBuilder.quote(R.tableName)
    }

    /// Appends another `SQL` fragment; its values stay bound, in order.
    ///
    /// - Complexity: O(n) in the fragment.
    public mutating func appendInterpolation(sql fragment: SQL) {
      text += fragment.text
      arguments += fragment.arguments
      if encodingFailure == nil { encodingFailure = fragment.encodingFailure }
    }
  }
}
