#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Maps one field value to one column value and back — the rules every record field,
/// predicate value and record id follow, so a value compares equal to itself once stored.
///
/// Order of the rules: `DatabaseValue` as is; `Date` as REAL seconds since 1970; `UUID` as
/// upper-case TEXT (its one canonical form, see ``UUIDForms``; any case is read); `URL` as
/// TEXT; `Data` as BLOB; a value that encodes through a single-value container
/// (numbers, strings, `Bool`, optionals, raw-value enums, wrappers) as that value; anything
/// else (structs, arrays, dictionaries, enums with payloads) as JSON TEXT.
enum ColumnValue {
  /// The column value for `value`.
  ///
  /// - Complexity: O(1) for scalars; O(n) in the encoded size for JSON.
  /// - Note: Allocations: none for scalars; the JSON text otherwise.
  static func encode<T: Encodable>(
    _ value: T, codingPath: [any CodingKey] = []
  ) throws
    -> DatabaseValue
  {
    // The common scalars first, by a metatype comparison each (a pointer compare) instead
    // of the dynamic casts below (each a runtime call): predicate values and ids are
    // mostly these. Same results as the single-value probe gives them.
    if T.self == Int.self { return .integer(Int64(value as! Int)) }
    if T.self == String.self { return .text(value as! String) }
    if T.self == Double.self { return .real(value as! Double) }
    if T.self == Int64.self { return .integer(value as! Int64) }
    if T.self == Bool.self { return .integer(value as! Bool ? 1 : 0) }
    switch value {
    case let value as DatabaseValue: return value
    case let date as Date: return .real(date.timeIntervalSince1970)
    case let uuid as UUID: return .text(uuid.uuidString)
    case let data as Data: return .blob([UInt8](data))
    case let url as URL: return .text(url.absoluteString)
    default:
      let probe = SingleValueProbe(codingPath: codingPath)
      try value.encode(to: probe)
      if !probe.needsJSON, let captured = probe.captured { return captured }
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      let data = try encoder.encode(value)
      return .text(String(decoding: data, as: UTF8.self))
    }
  }

  /// Decodes a `T` from the column `reader` points at, in the current row.
  ///
  /// - Throws: `DecodingError` (its coding path relative to the column) when the column
  ///   does not hold a `T`.
  static func decode<T: Decodable>(_ type: T.Type, from reader: ColumnReader) throws -> T {
    if type == Date.self { return Date(timeIntervalSince1970: try reader.double()) as! T }
    if type == UUID.self {
      let text = try reader.string()
      guard let uuid = UUID(uuidString: text) else {
        throw reader.mismatch(UUID.self, "'\(text)' is not a UUID")
      }
      return uuid as! T
    }
    if type == Data.self { return Data(try reader.bytes()) as! T }
    if type == URL.self {
      let text = try reader.string()
      guard let url = URL(string: text) else {
        throw reader.mismatch(URL.self, "'\(text)' is not a URL")
      }
      return url as! T
    }
    if type == DatabaseValue.self { return Column.value(reader.handle, reader.index) as! T }
    do {
      return try T(from: SingleValueColumnDecoder(reader: reader))
    } catch is NeedsJSON {
      let bytes = try reader.jsonBytes()
      return try JSONDecoder().decode(T.self, from: Data(bytes))
    }
  }
}

/// The text forms a stored UUID is matched in.
///
/// Weft writes one canonical form, upper case — what Foundation's `uuidString` and UUID's
/// `Codable` produce, and so what every file and server payload Weft has ever written holds
/// (lower case would have forced a rewrite of every stored id and outbox entry). Other
/// writers (RFC 4122 output, JavaScript, PostgreSQL, the `sqlite3` shell) often write lower
/// case, so lookups by a UUID also match its lower-case form; both forms are equality tests,
/// so an index on the column still serves them.
///
/// - Complexity: O(1).
/// - Note: Allocations: two 36-byte strings when `value` is a UUID; none otherwise.
enum UUIDForms {
  /// The canonical (upper-case) and lower-case text of `value` when it is a `UUID`.
  static func of(_ value: Any) -> (canonical: DatabaseValue, lower: DatabaseValue)? {
    guard let uuid = value as? UUID else { return nil }
    let canonical = uuid.uuidString
    return (.text(canonical), .text(canonical.lowercased()))
  }
}

/// Thrown by the single-value column decoder when the value wants a keyed or unkeyed
/// container: the column holds JSON.
struct NeedsJSON: Error {}

extension DecodingError {
  /// The same error with `prefix` put in front of its coding path (errors from a nested JSON
  /// decode only know the path inside the column).
  func prefixed(with prefix: [any CodingKey]) -> DecodingError {
    func adjust(_ context: Context) -> Context {
      Context(
        codingPath: prefix + context.codingPath, debugDescription: context.debugDescription,
        underlyingError: context.underlyingError)
    }
    switch self {
    case .typeMismatch(let type, let context): return .typeMismatch(type, adjust(context))
    case .valueNotFound(let type, let context): return .valueNotFound(type, adjust(context))
    case .keyNotFound(let key, let context): return .keyNotFound(key, adjust(context))
    case .dataCorrupted(let context): return .dataCorrupted(adjust(context))
    @unknown default: return self
    }
  }
}

extension Array where Element == any CodingKey {
  /// `heartRate`, `details.unit`, `samples[2]`.
  var dottedPath: String {
    var text = ""
    for key in self {
      if let index = key.intValue, key.stringValue == "Index \(index)" || key.stringValue.isEmpty {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    return text
  }
}
