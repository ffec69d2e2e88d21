/// One concrete action of a flow, with where it came from.
///
/// Loops are unrolled, so a statement inside `repeat 100 { ... }` yields 100 steps that share
/// a `location` and differ in `iterations`.
///
/// - Note: Isolation: a `Sendable` value. `sourceLine` and `location.file` share storage with
///   every other step of the same line, so a million steps cost no copies of the text.
public struct Step: Sendable, Equatable, Codable {
  /// What the step does, with typed arguments.
  public var kind: StepKind
  /// Where the statement starts: file, line and column of its first word.
  public var location: Flow.SourceLocation
  /// How many columns the statement spans on its line, from its first word to the end of
  /// its last argument (for a caret under it).
  public var length: Int
  /// The whole source line the statement is on, for per-step reports.
  public var sourceLine: String
  /// The loop counters of the enclosing `repeat`s, outermost first (empty outside loops):
  /// `[3, 7]` is the 7th iteration of an inner loop within the 3rd of an outer one.
  public var iterations: [Int]
  /// The `together` block the step was written in (`nil` outside one): consecutive steps
  /// with the same number start at once, each as its own task, and settle once after the
  /// last of them. Numbers count the blocks as the flow unrolls them, from 1.
  public var together: Int?

  /// Creates a step.
  ///
  /// - Complexity: O(1).
  public init(
    kind: StepKind, location: Flow.SourceLocation, length: Int = 1, sourceLine: String,
    iterations: [Int] = [], together: Int? = nil
  ) {
    self.kind = kind
    self.location = location
    self.length = max(1, length)
    self.sourceLine = sourceLine
    self.iterations = iterations
    self.together = together
  }

  /// A message about this step rendered like a `FlowError`: `file:line:col: error: message`,
  /// the line, and a caret under the statement. Loop iterations, if any, are named in the
  /// message (`(iteration 3 of the loop)`, `(iterations 2, 7)` for nested loops).
  ///
  /// - Complexity: O(c), c = characters in the source line.
  public func diagnostic(_ message: String, hint: String? = nil) -> String {
    diagnostic(message, hint: hint, window: LineWindow(line: sourceLine, column: location.column))
  }

  /// `diagnostic(_:hint:)` with the source line already cut to its window (the runner keeps
  /// the windows of long lines, so a failure on a 1 MB line costs O(window), not O(line)).
  ///
  /// - Complexity: O(w + m), w = the window's length, m = the message's.
  package func diagnostic(_ message: String, hint: String? = nil, window: LineWindow) -> String {
    let suffix: String =
      switch iterations.count {
      case 0: ""
      case 1: " (iteration \(iterations[0]))"
      default: " (iterations \(iterations.map(String.init).joined(separator: ", ")))"
      }
    return FlowError.render(
      location: location, length: length, window: window, message: message + suffix, hint: hint)
  }
}
