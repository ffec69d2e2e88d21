#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension GateThresholds {
  /// Reads thresholds from JSON text.
  ///
  /// - Throws: ``GateThresholdsError`` when the text is not thresholds of this schema version.
  /// - Complexity: O(n), n = size of the text.
  public static func decode(
    _ data: Data, path: String = "thresholds"
  ) throws(GateThresholdsError)
    -> GateThresholds
  {
    struct Header: Decodable { var schemaVersion: Int? }
    let header: Header
    do {
      header = try JSONDecoder().decode(Header.self, from: data)
    } catch {
      throw .malformed(path: path, detail: "\(error)")
    }
    guard header.schemaVersion == currentSchemaVersion else {
      throw .unsupportedVersion(path: path, version: header.schemaVersion)
    }
    do {
      return try JSONDecoder().decode(GateThresholds.self, from: data)
    } catch {
      throw .malformed(path: path, detail: "\(error)")
    }
  }

  /// Reads the thresholds file at `path`; a missing file is ``empty`` (every flow then fails
  /// as unrecorded, and the failure prints the file to commit).
  ///
  /// - Throws: ``GateThresholdsError`` when the file exists but cannot be read or parsed.
  public static func load(path: String) throws(GateThresholdsError) -> GateThresholds {
    let url = URL(fileURLWithPath: path)
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      if (error as? CocoaError)?.code == .fileReadNoSuchFile { return .empty }
      throw .unreadable(path: path, detail: "\(error)")
    }
    return try decode(data, path: path)
  }

  /// The thresholds as JSON text: pretty-printed, keys sorted, ending with a newline, so an
  /// update shows as a small diff in review.
  public var jsonText: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    // Every field is a string, an integer or a number whose non-finite values the strategy
    // above spells out, so encoding has no error to show.
    let data = try? encoder.encode(self)  // try?: these fields cannot fail to encode
    guard let data else { return "{}\n" }
    return String(decoding: data, as: UTF8.self) + "\n"
  }

  /// Writes ``jsonText`` to `path`.
  public func write(path: String) throws(GateThresholdsError) {
    do {
      try Data(jsonText.utf8).write(to: URL(fileURLWithPath: path))
    } catch {
      throw .unwritable(path: path, detail: "\(error)")
    }
  }

  /// These thresholds with `toolchain`'s flows replaced by what `observations` measured: the
  /// counts as measured, each ratio's baseline as its median (rounded to 3 decimals) keeping a
  /// tolerance the threshold set. Other toolchains and the policy stay as they are; flows not
  /// observed are dropped from `toolchain`.
  ///
  /// - Complexity: O(f × m), f = flows observed, m = metrics and ratios per flow.
  public func recording(
    _ observations: [GateObservation], toolchain: String,
    ratios: [RatioKey: RatioMeasurement] = [:]
  ) -> GateThresholds {
    var updated = self
    let previous = toolchains[toolchain]?.flows ?? [:]
    var flows: [String: FlowThresholds] = [:]
    for observation in observations {
      var recorded = FlowThresholds(counts: observation.counts)
      for (name, measured) in observation.ratios {
        let key = RatioKey(flow: observation.flow, name: name)
        let median = (ratios[key] ?? measured).median
        recorded.ratios[name] = RatioThreshold(
          baseline: (median * 1_000).rounded() / 1_000,
          tolerance: previous[observation.flow]?.ratios[name]?.tolerance)
      }
      flows[observation.flow] = recorded
    }
    updated.toolchains[toolchain] = ToolchainThresholds(flows: flows)
    return updated
  }
}

/// Why a thresholds file could not be used.
public enum GateThresholdsError: Error, Equatable, CustomStringConvertible {
  /// The file exists but could not be read.
  case unreadable(path: String, detail: String)
  /// The file could not be written.
  case unwritable(path: String, detail: String)
  /// The file is not thresholds JSON.
  case malformed(path: String, detail: String)
  /// The file has another schema version (or none).
  case unsupportedVersion(path: String, version: Int?)

  /// What happened and how to fix it, with `weft-sim`'s update command.
  public var description: String {
    description(updateCommand: "swift run -c release weft-sim gate --update")
  }

  /// What happened and how to fix it, naming the simulator's own update command
  /// (`GateOptions.updateCommand`: `notes-sim`'s for the Notes example).
  ///
  /// - Complexity: O(m), m = the message's length.
  public func description(updateCommand: String) -> String {
    switch self {
    case .unreadable(let path, let detail):
      "cannot read the gate thresholds at \(path): \(detail)"
    case .unwritable(let path, let detail):
      "cannot write the gate thresholds to \(path): \(detail)"
    case .malformed(let path, let detail):
      "the gate thresholds at \(path) are not valid thresholds JSON (\(detail)); fix the file "
        + "or regenerate it with `\(updateCommand)`"
    case .unsupportedVersion(let path, let version?):
      "the gate thresholds at \(path) have schema version \(version); this simulator reads "
        + "version \(GateThresholds.currentSchemaVersion): regenerate them with `\(updateCommand)`"
    case .unsupportedVersion(let path, nil):
      "the gate thresholds at \(path) have no schemaVersion field; regenerate them with "
        + "`\(updateCommand)`"
    }
  }
}
