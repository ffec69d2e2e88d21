import Foundation
import Testing

/// docs/simulate-your-app.md quotes the example: every `swift fragment` block must appear,
/// line for line (leading spaces aside), in one of the example's files, so the guide cannot
/// drift from the code it walks through.
@Suite("Guide")
struct GuideTests {
  /// `Examples/Notes`.
  static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The `swift fragment` blocks of the guide, each as its lines without leading spaces.
  static func fragments() throws -> [[String]] {
    let guide = example.deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("docs/simulate-your-app.md")
    var blocks: [[String]] = []
    var current: [String]?
    for line in try String(contentsOf: guide, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if current == nil, trimmed == "```swift fragment" {
        current = []
      } else if let block = current, trimmed == "```" {
        blocks.append(block)
        current = nil
      } else if current != nil {
        current?.append(trimmed)
      }
    }
    return blocks
  }

  /// Every Swift file of the example, each as its lines without leading spaces.
  static func sources() throws -> [[String]] {
    let files =
      ["Package.swift"]
      + ["Sources", "Tests"].flatMap { folder in
        FileManager.default.enumerator(atPath: example.appendingPathComponent(folder).path)?
          .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
          .map { "\(folder)/\($0)" } ?? []
      }
    return try files.map { file in
      try String(contentsOf: example.appendingPathComponent(file), encoding: .utf8)
        .split(separator: "\n", omittingEmptySubsequences: false)
        .map { $0.trimmingCharacters(in: .whitespaces) }
    }
  }

  @Test func everyFragmentIsQuotedFromTheExample() throws {
    let fragments = try Self.fragments()
    let sources = try Self.sources()
    #expect(fragments.count >= 8)
    for fragment in fragments {
      let found = sources.contains { lines in
        lines.count >= fragment.count
          && (0...(lines.count - fragment.count)).contains {
            Array(lines[$0..<$0 + fragment.count]) == fragment
          }
      }
      #expect(found, "not in the example:\n\(fragment.joined(separator: "\n"))")
    }
  }

  @Test func thePluginLineCountInTheGuideIsCurrent() throws {
    let plugin = Self.example.appendingPathComponent("Sources/NotesSimulator")
    let lines = try FileManager.default.contentsOfDirectory(atPath: plugin.path)
      .filter { $0.hasSuffix(".swift") }
      .map { try String(contentsOf: plugin.appendingPathComponent($0), encoding: .utf8) }
      .map { $0.split(separator: "\n", omittingEmptySubsequences: false).count - 1 }
      .reduce(0, +)
    let guide = try String(
      contentsOf: Self.example.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/simulate-your-app.md"), encoding: .utf8)
    #expect(guide.contains("| **\(lines)** |"), "the plug-in has \(lines) lines")
    // Commands, paths and a launch: the paths moved here from the app (issue 27); 11
    // commands and 12 paths fit in under 200 lines.
    #expect(lines < 200)
  }
}
