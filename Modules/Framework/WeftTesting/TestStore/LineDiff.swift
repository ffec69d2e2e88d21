/// A line diff of two renderings, for "expected vs actual" failure messages.
///
/// ```
///   Counter(
/// −   count: 0,
/// +   count: 1,
///     name: "a"
///   )
/// ```
///
/// - Complexity: O(n × m) time and space in the line counts (a longest common subsequence);
///   states in messages are small.
enum LineDiff {
  /// Lines of `old` and `new` marked `−` (only in old), `+` (only in new) or blank (both).
  static func render(_ old: [String], _ new: [String]) -> String {
    let n = old.count
    let m = new.count
    var common = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
    for i in stride(from: n - 1, through: 0, by: -1) {
      for j in stride(from: m - 1, through: 0, by: -1) {
        common[i][j] =
          old[i] == new[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
      }
    }
    var output: [String] = []
    var i = 0
    var j = 0
    while i < n || j < m {
      if i < n && j < m && old[i] == new[j] {
        output.append("  \(old[i])")
        i += 1
        j += 1
      } else if i < n && (j == m || common[i + 1][j] >= common[i][j + 1]) {
        output.append("− \(old[i])")
        i += 1
      } else {
        output.append("+ \(new[j])")
        j += 1
      }
    }
    return output.joined(separator: "\n")
  }

  /// The diff of two values' renderings, structs one field per line.
  static func render(expected: Any, actual: Any) -> String {
    render(Rendering.lines(expected, expanded: true), Rendering.lines(actual, expanded: true))
  }
}
