extension CommandSpec {
  /// The spec of a plug-in command (SimulatorKit's `AppCommand`): its statements are read
  /// against the declared arguments and build an `AppStep`.
  package init(
    declared command: FlowCommand, arguments: [CommandArgument],
    check: (@Sendable (CommandArguments) throws(ArgumentProblem) -> Void)?
  ) {
    let name = command.name
    let requiresOneOf = command.requiresOneOf
    self.init(
      command,
      .step { (reader: inout ArgumentReader) throws(FlowError) -> StepKind in
        if !requiresOneOf.isEmpty { try reader.requireAny(of: requiresOneOf) }
        let values = try reader.read(arguments)
        if let check {
          do throws(ArgumentProblem) {
            try check(values)
          } catch {
            throw reader.problem(error)
          }
        }
        return .app(AppStep(name, values))
      })
  }
}

extension ArgumentReader {
  /// Reads the declared `arguments`: literals and positional values in order, then every
  /// keyword in the order written.
  mutating func read(_ arguments: [CommandArgument]) throws(FlowError) -> CommandArguments {
    var values = CommandArguments()
    for argument in arguments {
      switch argument.position {
      case .literal:
        try literal(argument.name, try require("'\(argument.name)'"))
      case .positional:
        if argument.isRequired {
          let syntax = try requireValue(argument.placeholder)
          values.append(argument.name, try value(syntax, as: argument))
        } else if let next = next() {
          let syntax = try value(next, argument.placeholder)
          values.append(argument.name, try value(syntax, as: argument))
        }
      case .keyword:
        if argument.isRequired, keyword(argument.name) == nil {
          throw missing("'\(argument.name)='")
        }
      }
    }
    for keyword in statement.keywords {
      guard
        let argument = arguments.first(where: { $0.position == .keyword && $0.name == keyword.name }
        )
      else { continue }  // the parser rejected undeclared keywords
      values.append(argument.name, try value(keyword.value, as: argument))
    }
    return values
  }

  /// One value, checked as `argument`'s kind.
  func value(_ syntax: ValueSyntax, as argument: CommandArgument) throws(FlowError) -> ArgumentValue
  {
    let label = argument.position == .keyword ? "\(argument.name)=" : argument.name
    switch argument.kind {
    case .integer(let range): return .integer(try integer(syntax, label, in: range))
    case .number(let range): return .number(try decimal(syntax, label, in: range))
    case .text: return .text(try text(syntax))
    case .name: return .text(try name(syntax, "a name for \(label)"))
    case .duration: return .duration(try duration(syntax, label))
    case .date: return .date(try date(syntax, label))
    case .word(let words): return .word(try word(syntax, among: words, kind: argument.name))
    case .boolean: return .boolean(try bool(syntax))
    case .contextPath: return .text(try contextPath(syntax))
    }
  }

  /// The value as one of `words`.
  func word(_ value: ValueSyntax, among words: [String], kind: String) throws(FlowError) -> String {
    let string = try text(value)
    if words.contains(string) { return string }
    let hint =
      if let match = Suggestion.nearest(to: string, among: words) {
        "did you mean '\(match.word)'?"
      } else {
        "expected one of: \(words.joined(separator: ", "))"
      }
    throw source.error(.unknownEnumWord, at: value.span, "unknown \(kind) '\(string)'", hint: hint)
  }

  /// A plug-in's `ArgumentProblem` as a flow error under the argument it names.
  func problem(_ problem: ArgumentProblem) -> FlowError {
    var span = statement.commandSpan
    if let name = problem.argument {
      if let keyword = statement.keyword(name) {
        span =
          problem.blamesWholeArgument
          ? keyword.span.through(keyword.value.span) : keyword.value.span
      }
    }
    return source.error(
      problem.kind, at: span, problem.message, hint: problem.hint ?? "usage: \(usage)")
  }
}
