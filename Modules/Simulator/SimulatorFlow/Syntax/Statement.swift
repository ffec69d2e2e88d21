/// A parsed statement: its command resolved against the catalog, its arguments as written,
/// and its block. Values are not interpreted yet: that needs the variables in scope, which
/// the evaluator knows.
struct Statement: Sendable {
  /// A positional argument.
  enum Argument: Sendable {
    case value(ValueSyntax)
    case comparison(StepKind.ComparisonOperator, Span)

    var span: Span {
      switch self {
      case .value(let value): value.span
      case .comparison(_, let span): span
      }
    }
  }

  /// A `key=value` argument.
  struct Keyword: Sendable {
    var name: String
    /// The key's span.
    var span: Span
    var value: ValueSyntax
  }

  /// A unique number, used to build a statement without variables only once.
  var id: Int
  var spec: CommandSpec
  /// The span of the command's words.
  var commandSpan: Span
  /// The span from the command to the end of its last argument on the same line.
  var span: Span
  var arguments: [Argument]
  var keywords: [Keyword]
  var block: [Statement]?
  /// Whether any argument reads a variable.
  var usesVariables: Bool
  /// A lower bound of the steps one execution of the statement adds, used to reject a
  /// `repeat` that would pass the step cap before unrolling it.
  var minimumSteps: Int

  func keyword(_ name: String) -> Keyword? { keywords.first { $0.name == name } }
}
