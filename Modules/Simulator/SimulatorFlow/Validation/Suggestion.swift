/// Nearest-word suggestions for "did you mean" hints.
///
/// Distance is the optimal-string-alignment edit distance (insertions, deletions,
/// substitutions and adjacent transpositions), compared case-insensitively.
package enum Suggestion {
  /// Words longer than this get no suggestion (keeps the cost bounded on hostile input).
  static let maxLength = 64

  /// Candidate words prepared once: lowercased scalars for the distance computation.
  struct Candidates: Sendable {
    let words: [String]
    let scalars: [[Unicode.Scalar]]

    init(_ words: some Sequence<String>) {
      self.words = Array(words)
      self.scalars = self.words.map { Array($0.lowercased().unicodeScalars) }
    }
  }

  /// The candidate closest to `word`, if it is close enough: within 1 edit for words of up
  /// to 3 characters, else within max(2, length / 3). Among equally close candidates the one
  /// sharing the longest common subsequence with `word` wins (`logn` suggests `login`, which
  /// only lacks a letter, over `log`), then the earlier one.
  ///
  /// - Complexity: O(c · m · n), c = candidates, m and n ≤ `maxLength`.
  package static func nearest(
    to word: String, among candidates: some Sequence<String>
  ) -> (
    word: String, distance: Int
  )? {
    nearest(to: word, among: Candidates(candidates))
  }

  /// `nearest(to:among:)` over prepared candidates.
  static func nearest(
    to word: String, among candidates: Candidates
  ) -> (
    word: String, distance: Int
  )? {
    let target = Array(word.lowercased().unicodeScalars)
    guard !target.isEmpty, target.count <= maxLength else { return nil }
    let limit = target.count <= 3 ? 1 : max(2, target.count / 3)
    var best: (word: String, distance: Int, common: Int)?
    for (candidate, scalars) in zip(candidates.words, candidates.scalars) where candidate != word {
      guard scalars.count <= maxLength, abs(scalars.count - target.count) <= limit else {
        continue
      }
      let distance = Self.distance(target, scalars)
      guard distance <= limit else { continue }
      let common = Self.commonSubsequence(target, scalars)
      if let current = best,
        distance > current.distance || distance == current.distance && common <= current.common
      {
        continue
      }
      best = (candidate, distance, common)
    }
    return best.map { ($0.word, $0.distance) }
  }

  /// The length of the longest common subsequence of `a` and `b`.
  ///
  /// - Complexity: O(m · n) time, O(n) space.
  static func commonSubsequence(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    guard !a.isEmpty, !b.isEmpty else { return 0 }
    var previous = [Int](repeating: 0, count: b.count + 1)
    var row = previous
    for i in 1...a.count {
      for j in 1...b.count {
        row[j] = a[i - 1] == b[j - 1] ? previous[j - 1] + 1 : max(previous[j], row[j - 1])
      }
      swap(&previous, &row)
    }
    return previous[b.count]
  }

  /// The optimal-string-alignment distance between `a` and `b`.
  ///
  /// - Complexity: O(m · n) time, O(n) space.
  static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previousPrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var row = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      row[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var value = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          value = min(value, previousPrevious[j - 2] + 1)
        }
        row[j] = value
      }
      (previousPrevious, previous, row) = (previous, row, previousPrevious)
    }
    return previous[b.count]
  }
}
