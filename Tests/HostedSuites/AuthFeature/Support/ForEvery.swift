/// Runs `body` for every pair of `a` × `b`: a pure machine checked in every state against
/// every input.
func forEvery<A, B>(_ a: [A], _ b: [B], _ body: (A, B) -> Void) {
  for x in a {
    for y in b { body(x, y) }
  }
}
