/// Runs `body` for every element of the cartesian product of `a` and `b`, so a pure state
/// machine is checked in every state against every input.
func forEvery<A, B>(_ a: [A], _ b: [B], _ body: (A, B) -> Void) {
  for x in a {
    for y in b { body(x, y) }
  }
}

/// Every sequence of `length` elements drawn from `alphabet` (alphabet.count ^ length of them).
func everySequence<Element>(of alphabet: [Element], length: Int) -> [[Element]] {
  guard length > 0 else { return [[]] }
  return everySequence(of: alphabet, length: length - 1).flatMap { prefix in
    alphabet.map { prefix + [$0] }
  }
}
