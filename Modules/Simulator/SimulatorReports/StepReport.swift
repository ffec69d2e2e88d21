/// One step of a run: where it is in the flow file, what happened, and what it cost.
///
/// - Complexity: O(1) storage plus its explain list.
/// - Note: Isolation: a value; `Sendable`.
public struct StepReport: Sendable, Equatable, Codable {
  /// Position in the flow, from 1.
  public var index: Int
  /// Line in the flow file, from 1.
  public var line: Int
  /// The step's source text as written (without its comment).
  public var source: String
  /// How the step ended.
  public var status: StepStatus
  /// What went wrong, for a failed or errored step, in the words the table prints.
  public var message: String?
  /// For an errored step, the kind of error (`SimulationError.Kind`'s name: `command`,
  /// `launch`, `clock`, `settle`, `option`, `flow`, `other`), for tools that sort failures without
  /// reading the message.
  public var cause: String?
  /// For a failed expectation: what was expected and what was found.
  public var expectation: ExpectationOutcome?
  /// What the step cost and provoked.
  public var metrics: StepMetrics
  /// Why views re-rendered during the step, grouped by cause (see ``RenderCauseTally``).
  public var explain: [RenderCause]

  /// Makes a step report.
  public init(
    index: Int, line: Int, source: String, status: StepStatus = .passed, message: String? = nil,
    expectation: ExpectationOutcome? = nil, metrics: StepMetrics = StepMetrics(),
    explain: [RenderCause] = []
  ) {
    self.index = index
    self.line = line
    self.source = source
    self.status = status
    self.message = message
    self.expectation = expectation
    self.metrics = metrics
    self.explain = explain
  }
}

/// How a step ended.
public enum StepStatus: String, Sendable, Equatable, Codable, CaseIterable {
  /// It ran, and its expectation (if any) held.
  case passed
  /// Its expectation did not hold.
  case failed
  /// It could not run: a context error, a misuse, a fault the flow did not expect.
  case errored
  /// It did not run because an earlier step errored.
  case skipped
}

/// The two sides of a failed `expect`.
public struct ExpectationOutcome: Sendable, Equatable, Codable {
  /// The observed value's name, as written (`auth.state`).
  public var subject: String
  /// The value the flow expected, as written.
  public var expected: String
  /// The value found, printed the same way.
  public var actual: String

  /// Makes an outcome.
  public init(subject: String, expected: String, actual: String) {
    self.subject = subject
    self.expected = expected
    self.actual = actual
  }
}
