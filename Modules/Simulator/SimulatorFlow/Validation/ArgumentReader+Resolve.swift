/// Substituting variables and evaluating `$(...)`.
extension ArgumentReader {
  /// The value with its variables and expressions substituted. One part keeps its kind
  /// (a number stays a number); several parts are concatenated into text, quoted if any
  /// part was quoted.
  ///
  /// - Complexity: O(p + e), p = parts, e = expression nodes.
  func resolve(_ value: ValueSyntax) throws(FlowError) -> Resolved {
    if value.parts.count == 1 { return try resolve(value.parts[0]) }
    var text = ""
    var quoted = false
    for part in value.parts {
      let resolved = try resolve(part)
      if case .text(_, quoted: true) = resolved { quoted = true }
      text += resolved.plainText
    }
    return .text(text, quoted: quoted)
  }

  private func resolve(_ part: ValuePart) throws(FlowError) -> Resolved {
    switch part {
    case .text(let text, let quoted): .text(text, quoted: quoted)
    case .variable(let name, let span): try lookup(name, at: span).value
    case .expression(let expression, _): .number(try evaluate(expression))
    }
  }

  /// The binding of `$name`, or an unknown-variable error with the nearest visible name.
  func lookup(_ name: String, at span: Span) throws(FlowError) -> Scope.Binding {
    if let binding = scope.lookup(name) { return binding }
    let hint: String =
      if let match = Suggestion.nearest(to: name, among: scope.visibleNames) {
        "did you mean '$\(match.word)'?"
      } else if name == "i" {
        "'$i' is defined only inside 'repeat N { ... }'"
      } else {
        "define it first with 'let \(name) = VALUE', or pass --define \(name)=VALUE"
      }
    throw source.error(.unknownVariable, at: span, "unknown variable '$\(name)'", hint: hint)
  }

  /// Evaluates `$(...)`: whole numbers stay whole (overflow is an error), a division that
  /// does not come out even and anything with a decimal gives a decimal.
  ///
  /// - Complexity: O(e), e = nodes; recursion depth is bounded by the parser's nesting limit.
  func evaluate(_ expression: Expression) throws(FlowError) -> Number {
    switch expression {
    case .number(let number):
      return number
    case .variable(let name, let span):
      let binding = try lookup(name, at: span)
      switch binding.value {
      case .number(let number): return number
      case .text(let text, let quoted):
        if !quoted, case .number(let number) = NumberText.parse(text) { return number }
        throw source.error(
          .wrongValueKind, at: span,
          "'$\(name)' is \(binding.value.display), not a number, in $(...)",
          hint: "'$\(name)' is defined on line \(binding.line)")
      }
    case .negate(let operand):
      switch try evaluate(operand) {
      case .integer(let value):
        let (result, overflow) = (0).subtractingReportingOverflow(value)
        if overflow { return .decimal(-Double(value)) }
        return .integer(result)
      case .decimal(let value): return .decimal(-value)
      }
    case .chain(let first, let operations):
      var result = try evaluate(first)
      for operation in operations {
        result = try apply(
          operation.op, result, try evaluate(operation.operand), at: operation.span)
      }
      return result
    }
  }

  private func apply(
    _ op: ArithmeticOperator, _ lhs: Number, _ rhs: Number, at span: Span
  ) throws(FlowError) -> Number {
    if op == .divide || op == .remainder, rhs.double == 0 {
      throw source.error(
        .divisionByZero, at: span,
        "division by zero in $(...)" + (op == .remainder ? " (remainder by zero)" : ""),
        hint: "check the divisor; loop counters start at 1")
    }
    if case .integer(let a) = lhs, case .integer(let b) = rhs {
      let (result, overflow): (Int, Bool)
      switch op {
      case .add: (result, overflow) = a.addingReportingOverflow(b)
      case .subtract: (result, overflow) = a.subtractingReportingOverflow(b)
      case .multiply: (result, overflow) = a.multipliedReportingOverflow(by: b)
      case .remainder: (result, overflow) = a.remainderReportingOverflow(dividingBy: b)
      case .divide:
        let (remainder, remainderOverflow) = a.remainderReportingOverflow(dividingBy: b)
        guard !remainderOverflow, remainder == 0 else {
          return try finite(Double(a) / Double(b), at: span)
        }
        (result, overflow) = a.dividedReportingOverflow(by: b)
      }
      guard !overflow else {
        throw source.error(
          .arithmeticOverflow, at: span,
          "arithmetic overflow in $(...): \(a) \(op.rawValue) \(b) does not fit in a whole number",
          hint: "whole numbers go up to \(Int.max)")
      }
      return .integer(result)
    }
    let a = lhs.double
    let b = rhs.double
    return switch op {
    case .add: try finite(a + b, at: span)
    case .subtract: try finite(a - b, at: span)
    case .multiply: try finite(a * b, at: span)
    case .divide: try finite(a / b, at: span)
    case .remainder: try finite(a.truncatingRemainder(dividingBy: b), at: span)
    }
  }

  private func finite(_ value: Double, at span: Span) throws(FlowError) -> Number {
    guard value.isFinite else {
      throw source.error(
        .arithmeticOverflow, at: span, "arithmetic overflow in $(...): the result is not finite")
    }
    return .decimal(value)
  }
}
