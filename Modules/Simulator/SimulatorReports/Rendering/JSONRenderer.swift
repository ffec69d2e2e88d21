#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Prints a ``RunReport`` as JSON for machines (`--json`) and reads it back: pretty-printed,
/// keys sorted, dates as ISO 8601 UTC seconds, so equal reports give byte-identical text and a
/// diff of two reports shows only what changed.
///
/// The schema is versioned by the report's `schemaVersion` (now 1) and documented in
/// `docs/simulator-report.md`. Reading refuses another version rather than guessing.
///
/// - Complexity: O(n), n = size of the report.
/// - Note: Isolation: a value; `Sendable`; any thread.
public struct JSONRenderer: Sendable {
  /// Makes a renderer.
  public init() {}

  /// The report as JSON text, ending with a newline.
  ///
  /// Encoding cannot fail for a report (every value is a string, an integer or a finite or
  /// spelled-out non-finite number); should it, the text is a JSON object naming the error.
  public func render(_ report: RunReport) -> String {
    do {
      return try String(decoding: encode(report), as: UTF8.self) + "\n"
    } catch {
      return "{\n  \"error\" : \"could not encode the report: \(error)\",\n"
        + "  \"schemaVersion\" : \(RunReport.currentSchemaVersion)\n}\n"
    }
  }

  /// The report as UTF-8 JSON bytes (no trailing newline).
  public func encode(_ report: RunReport) throws -> Data {
    try Self.encoder().encode(report)
  }

  /// Reads a report written by ``render(_:)``.
  ///
  /// - Throws: ``ReportDecodingError`` when the text is not a report of this schema version.
  public func decode(_ data: Data) throws(ReportDecodingError) -> RunReport {
    struct Header: Decodable {
      var schemaVersion: Int?
      var tool: String?
    }
    let decoder = Self.decoder()
    let header: Header
    do {
      header = try decoder.decode(Header.self, from: data)
    } catch {
      throw .malformed("\(error)")
    }
    guard header.schemaVersion == RunReport.currentSchemaVersion else {
      throw .unsupportedVersion(header.schemaVersion)
    }
    do {
      return try decoder.decode(RunReport.self, from: data)
    } catch {
      throw .malformed("\(error)")
    }
  }

  package static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.dateEncodingStrategy = .custom { date, encoder in
      var container = encoder.singleValueContainer()
      try container.encode(TimestampFormat.iso8601(date))
    }
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return encoder
  }

  package static func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      let text = try container.decode(String.self)
      guard let date = TimestampFormat.parse(text) else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "expected a date like 2026-05-01T10:00:00Z: \(text)")
      }
      return date
    }
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return decoder
  }
}

/// Why a JSON text could not be read as a ``RunReport``.
public enum ReportDecodingError: Error, Equatable, CustomStringConvertible {
  /// The report declares another schema version (or none).
  case unsupportedVersion(Int?)
  /// The text is not JSON of the report's shape; the associated text says where.
  case malformed(String)

  /// What happened and how to fix it.
  public var description: String {
    switch self {
    case .unsupportedVersion(let version?):
      "report schema version \(version) is not supported: this weft-sim reads version "
        + "\(RunReport.currentSchemaVersion); re-run the flow with this weft-sim to get one"
    case .unsupportedVersion(nil):
      "not a weft-sim report: no schemaVersion field"
    case .malformed(let detail):
      "not a weft-sim report of schema version \(RunReport.currentSchemaVersion): \(detail)"
    }
  }
}
