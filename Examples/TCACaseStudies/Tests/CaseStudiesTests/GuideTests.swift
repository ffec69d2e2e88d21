import Foundation
import Testing

/// docs/tca-users.md quotes the example: every `swift fragment` block must appear, line for
/// line (indentation, blank lines and comment lines aside), in one of the example's Swift
/// files, so the guide cannot drift from the code it sets beside TCA's.
@Suite("Guide")
struct GuideTests {
  /// `Examples/TCACaseStudies`.
  static let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The lines that count: trimmed, without blank and comment lines.
  static func code(_ text: some StringProtocol) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty && !$0.hasPrefix("//") }
  }

  /// The guide's `swift fragment` blocks.
  static func fragments() throws -> [[String]] {
    let guide = example.deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("docs/tca-users.md")
    var blocks: [[String]] = []
    var current: [String]?
    for line in try String(contentsOf: guide, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if current == nil, trimmed == "```swift fragment" {
        current = []
      } else if let block = current, trimmed == "```" {
        blocks.append(code(block.joined(separator: "\n")))
        current = nil
      } else if current != nil {
        current?.append(trimmed)
      }
    }
    return blocks
  }

  /// Every Swift file of the example.
  static func sources() throws -> [[String]] {
    let files = ["Sources", "Tests"].flatMap { folder in
      FileManager.default.enumerator(atPath: example.appendingPathComponent(folder).path)?
        .compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        .map { "\(folder)/\($0)" } ?? []
    }
    return try files.map { file in
      code(try String(contentsOf: example.appendingPathComponent(file), encoding: .utf8))
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
      #expect(found, "not in the example, line for line:\n\(fragment.joined(separator: "\n"))")
    }
  }
}
