import Foundation

/// How request bodies are encoded and responses decoded: JSON with a chosen date format and
/// key style, the same for both directions unless set apart.
///
/// ```swift
/// let coding = JSONCoding(dates: .millisecondsSince1970, keys: .snakeCase)
/// ```
///
/// - Complexity: `makeEncoder`/`makeDecoder` are O(1).
/// - Note: Isolation: a value type; any isolation. The coders it makes are used by one call
///   and dropped.
/// - Note: Allocations: one coder object per `make…` call.
public struct JSONCoding: Sendable, Equatable {
  /// How dates are written in JSON.
  public enum DateStrategy: Sendable, Equatable {
    /// `2024-05-01T12:00:00Z`.
    case iso8601
    /// `2024-05-01T12:00:00.123Z`; decoding also accepts the form without fractions.
    case iso8601WithFractionalSeconds
    /// A number of seconds since 1970-01-01T00:00:00Z.
    case secondsSince1970
    /// A number of milliseconds since 1970-01-01T00:00:00Z.
    case millisecondsSince1970
    /// Foundation's default: seconds since 2001-01-01 (reference date).
    case deferredToDate
  }

  /// How JSON object keys map to Swift property names.
  public enum KeyStrategy: Sendable, Equatable {
    /// Keys are the property names.
    case useDefaultKeys
    /// `created_at` in JSON is `createdAt` in Swift.
    case snakeCase
  }

  /// The date format used when decoding responses.
  public var dateDecoding: DateStrategy
  /// The date format used when encoding request bodies.
  public var dateEncoding: DateStrategy
  /// The key style, both directions.
  public var keys: KeyStrategy
  /// The deepest nesting of arrays and objects a response may have (by default
  /// ``defaultMaximumNestingDepth``, 64). A deeper body fails with a `.decoding`
  /// ``NetworkError`` before it is decoded, whatever the decoder's own limit. Raise it for
  /// an API that really nests deeper.
  public var maximumNestingDepth = JSONCoding.defaultMaximumNestingDepth

  /// The default ``maximumNestingDepth``: 64 levels, far past any API's documents, far below
  /// what a recursive decoder's stack bears.
  public static let defaultMaximumNestingDepth = 64

  /// Makes a coding with one date format and key style for both directions.
  public init(dates: DateStrategy = .iso8601, keys: KeyStrategy = .useDefaultKeys) {
    self.dateDecoding = dates
    self.dateEncoding = dates
    self.keys = keys
  }

  /// A decoder for one response.
  public func makeDecoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    if keys == .snakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
    switch dateDecoding {
    case .iso8601: decoder.dateDecodingStrategy = .iso8601
    case .secondsSince1970: decoder.dateDecodingStrategy = .secondsSince1970
    case .millisecondsSince1970: decoder.dateDecodingStrategy = .millisecondsSince1970
    case .deferredToDate: decoder.dateDecodingStrategy = .deferredToDate
    case .iso8601WithFractionalSeconds:
      decoder.dateDecodingStrategy = .custom { decoder in
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        // Two accepted forms, tried in turn; if neither parses, the DecodingError below names
        // the text and the expected form, which says more than either parser's error.
        let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        if let date = try? fractional.parse(text) {  // try?: not this form: the next one
          return date
        }
        let plain = Date.ISO8601FormatStyle()
        if let date = try? plain.parse(text) { return date }  // try?: the error below says why
        throw DecodingError.dataCorruptedError(
          in: container,
          debugDescription: "expected an ISO 8601 date such as 2024-05-01T12:00:00.123Z, "
            + "found \"\(text)\"")
      }
    }
    return decoder
  }

  /// An encoder for one request body (keys sorted, so bodies are byte-for-byte stable).
  public func makeEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    if keys == .snakeCase { encoder.keyEncodingStrategy = .convertToSnakeCase }
    switch dateEncoding {
    case .iso8601: encoder.dateEncodingStrategy = .iso8601
    case .secondsSince1970: encoder.dateEncodingStrategy = .secondsSince1970
    case .millisecondsSince1970: encoder.dateEncodingStrategy = .millisecondsSince1970
    case .deferredToDate: encoder.dateEncodingStrategy = .deferredToDate
    case .iso8601WithFractionalSeconds:
      encoder.dateEncodingStrategy = .custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(date.formatted(.iso8601WithFractionalSeconds))
      }
    }
    return encoder
  }
}

extension FormatStyle where Self == Date.ISO8601FormatStyle {
  fileprivate static var iso8601WithFractionalSeconds: Date.ISO8601FormatStyle {
    Date.ISO8601FormatStyle(includingFractionalSeconds: true)
  }
}
