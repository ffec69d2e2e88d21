import SimulatorGate
import SimulatorReports

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Any report `weft-sim` writes as JSON, read back: a run (`run --json`), a sweep
/// (`sweep --json`), merged runs (``RunCollection``) or a gate (`gate --json`, ``GateReport``).
///
/// The kind is read from the JSON: `"kind": "gate"` or `"runs"`, otherwise a run report, a
/// sweep when it has a `sweep` section.
///
/// - Note: Isolation: a value; `Sendable`.
public enum SimulatorReport: Sendable, Equatable {
  /// One run of one flow.
  case run(RunReport)
  /// One flow at several sizes.
  case sweep(RunReport)
  /// Several runs merged.
  case runs(RunCollection)
  /// A gate, a shard of one, or merged shards.
  case gate(GateReport)

  /// `run`, `sweep`, `runs` or `gate`.
  public var kind: String {
    switch self {
    case .run: "run"
    case .sweep: "sweep"
    case .runs: RunCollection.kindName
    case .gate: GateReport.kindName
    }
  }

  /// 0 when the report passed, 1 otherwise.
  public var exitCode: Int32 {
    switch self {
    case .run(let report), .sweep(let report): report.exitCode
    case .runs(let runs): runs.exitCode
    case .gate(let gate): gate.exitCode
    }
  }

  /// Reads a report of any kind.
  ///
  /// - Complexity: O(n), n = size of the text.
  /// - Throws: ``ReportDecodingError`` when the text is not a report of a supported version.
  public static func decode(_ data: Data) throws(ReportDecodingError) -> SimulatorReport {
    /// Decodes to nothing: only whether the field is there matters.
    struct Present: Decodable {
      init(from decoder: any Decoder) throws {}
    }
    struct Header: Decodable {
      var schemaVersion: Int?
      var kind: String?
      var sweep: Present?
    }
    let decoder = JSONRenderer.decoder()
    let header: Header
    do {
      header = try decoder.decode(Header.self, from: data)
    } catch {
      throw .malformed("\(error)")
    }
    switch header.kind {
    case GateReport.kindName?:
      guard header.schemaVersion == GateReport.currentSchemaVersion else {
        throw .unsupportedVersion(header.schemaVersion)
      }
      do {
        return .gate(try decoder.decode(GateReport.self, from: data))
      } catch {
        throw .malformed("\(error)")
      }
    case RunCollection.kindName?:
      guard header.schemaVersion == RunCollection.currentSchemaVersion else {
        throw .unsupportedVersion(header.schemaVersion)
      }
      do {
        return .runs(try decoder.decode(RunCollection.self, from: data))
      } catch {
        throw .malformed("\(error)")
      }
    case nil:
      let report = try JSONRenderer().decode(data)
      return header.sweep == nil ? .run(report) : .sweep(report)
    case let other?:
      throw .malformed(
        "unknown report kind '\(other)' (this weft-sim reads run, sweep, runs, gate)")
    }
  }

  /// The report as JSON text, ending with a newline: what `--format json` writes.
  ///
  /// - Complexity: O(size of the report).
  public var jsonText: String {
    switch self {
    case .run(let report), .sweep(let report):
      return JSONRenderer().render(report)
    case .gate(let gate):
      return gate.jsonText
    case .runs(let runs):
      do {
        return try String(decoding: JSONRenderer.encoder().encode(runs), as: UTF8.self) + "\n"
      } catch {
        return "{\n  \"error\" : \"could not encode the runs: \(error)\",\n"
          + "  \"kind\" : \"runs\",\n  \"schemaVersion\" : \(RunCollection.currentSchemaVersion)\n}\n"
      }
    }
  }
}
