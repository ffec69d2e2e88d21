import Foundation
import Testing
import WeftCore

/// `Weft.version` is the one place the version lives; the CHANGELOG's top released entry must
/// name the same version, so a release that bumps one and forgets the other fails here.
@Suite("Weft.version")
struct VersionTests {
  @Test func versionIsSemanticVersion() {
    #expect(ChangelogEntry.isSemanticVersion(Weft.version), "\(Weft.version)")
  }

  @Test func changelogTopReleaseIsTheVersion() throws {
    let changelog = try String(contentsOf: Self.changelogURL, encoding: .utf8)
    let releases = ChangelogEntry.releases(in: changelog)
    let top = try #require(releases.first, "CHANGELOG.md has no '## [X.Y.Z] - YYYY-MM-DD' entry")
    #expect(
      top.version == Weft.version,
      """
      CHANGELOG.md's top release is \(top.version) but Weft.version is \(Weft.version); \
      bump both (docs/releasing.md)
      """)
  }

  @Test func readmeInstallsTheVersion() throws {
    let readme = try String(contentsOf: Self.packageFile("README.md"), encoding: .utf8)
    #expect(
      readme.contains("from: \"\(Weft.version)\")"),
      "README's install snippet must say from: \"\(Weft.version)\"")
    #expect(
      readme.contains("Current release: **\(Weft.version)**"),
      "README's install section must show the current release, \(Weft.version)")
  }

  @Test func changelogKeepsAnUnreleasedSectionAndDescendingReleases() throws {
    let changelog = try String(contentsOf: Self.changelogURL, encoding: .utf8)
    let headings = changelog.split(separator: "\n").filter { $0.hasPrefix("## [") }
    #expect(headings.first == "## [Unreleased]", "the first section is [Unreleased]")
    let releases = ChangelogEntry.releases(in: changelog)
    #expect(releases.count == headings.count - 1, "every other section is a dated release")
    for (newer, older) in zip(releases, releases.dropFirst()) {
      #expect(
        ChangelogEntry.precedes(older.version, newer.version),
        "\(newer.version) is listed above \(older.version), so it must be newer")
    }
  }

  @Test func parserSkipsUnreleasedAndReadsDatedReleases() {
    let text = """
      # Changelog

      ## [Unreleased]
      ### Added
      - something

      ## [1.2.0] - 2027-01-02
      ## [1.10.0] is not a release heading without a date
      ## [0.9.1] - 2026-12-01
      """
    #expect(
      ChangelogEntry.releases(in: text) == [
        ChangelogEntry(version: "1.2.0", date: "2027-01-02"),
        ChangelogEntry(version: "0.9.1", date: "2026-12-01"),
      ])
    #expect(ChangelogEntry.releases(in: "## [Unreleased]\n").isEmpty)
    #expect(ChangelogEntry.precedes("0.9.1", "0.10.0"))
    #expect(!ChangelogEntry.precedes("1.0.0", "1.0.0"))
    #expect(!ChangelogEntry.isSemanticVersion("v0.1.0"))
    #expect(!ChangelogEntry.isSemanticVersion("0.1"))
  }

  /// `CHANGELOG.md` at the package root.
  private static let changelogURL = packageFile("CHANGELOG.md")

  /// A file at the package root, two folders above this file.
  private static func packageFile(_ name: String) -> URL {
    URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent(name)
  }
}

/// One released section of a Keep a Changelog file: `## [0.1.0] - 2026-11-25`.
private struct ChangelogEntry: Equatable {
  var version: String
  var date: String

  /// The dated release headings of `text`, top first (`[Unreleased]` is not a release).
  static func releases(in text: String) -> [ChangelogEntry] {
    text.split(separator: "\n").compactMap { line -> ChangelogEntry? in
      guard line.hasPrefix("## ["), let close = line.firstIndex(of: "]") else { return nil }
      let version = String(line[line.index(line.startIndex, offsetBy: 4)..<close])
      let rest = line[line.index(after: close)...]
      guard rest.hasPrefix(" - "), isSemanticVersion(version) else { return nil }
      let date = String(rest.dropFirst(3))
      let parts = date.split(separator: "-")
      guard parts.count == 3, parts.map(\.count) == [4, 2, 2],
        parts.allSatisfy({ $0.allSatisfy(\.isNumber) })
      else { return nil }
      return ChangelogEntry(version: version, date: date)
    }
  }

  /// `MAJOR.MINOR.PATCH` with an optional `-prerelease`, no leading `v` (SwiftPM's tag form).
  static func isSemanticVersion(_ text: String) -> Bool {
    let core = text.split(separator: "-", maxSplits: 1).first ?? ""
    let numbers = core.split(separator: ".", omittingEmptySubsequences: false)
    return numbers.count == 3
      && numbers.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
  }

  /// Whether `lower` comes before `upper` (numeric comparison of the core versions).
  static func precedes(_ lower: String, _ upper: String) -> Bool {
    func numbers(_ version: String) -> [Int] {
      (version.split(separator: "-").first ?? "").split(separator: ".").map { Int($0) ?? 0 }
    }
    return numbers(lower).lexicographicallyPrecedes(numbers(upper))
  }
}
