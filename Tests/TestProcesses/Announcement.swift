/// A fixture server's first line, `WORD key=value key=value …` (`PORTS http=8080 ws=8081`):
/// the fields after `word`, or `nil` when the line does not start with it.
///
/// A value keeps any `=` after the first (a file path may hold one).
///
/// - Complexity: O(line length).
public func announcedFields(_ line: String, after word: String) -> [String: String]? {
  let words = line.split(whereSeparator: \.isWhitespace)
  guard words.first == Substring(word) else { return nil }
  var fields: [String: String] = [:]
  for field in words.dropFirst() {
    let parts = field.split(separator: "=", maxSplits: 1)
    if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
  }
  return fields
}
