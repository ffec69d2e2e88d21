import Foundation

/// One argument of a plug-in command, declared once: where it is written (positional, in
/// order, or `key=value`), what kind of value it takes, and whether it may be left out.
///
/// The engine reads and checks every argument before the run, so a wrong value is a flow
/// error with `file:line:col`, a caret under the value and a hint; a command's `perform`
/// only ever sees values of the declared kinds.
///
/// ```swift
/// .positional("range", .word(["day", "week", "month"]))   // dashboard.range week
/// .keyword("title", .text, required: true)                 // note.add title="Milk"
/// .keyword("count", .integer(1...100))                     // [count=N]
/// ```
///
/// - Note: Isolation: a `Sendable` value.
public struct CommandArgument: Sendable, Hashable {
  /// The kinds of value an argument takes: the value kinds of the flow language.
  public enum Kind: Sendable, Hashable {
    /// A whole number within the range.
    case integer(ClosedRange<Int>)
    /// A number (whole or decimal) within the range, any finite number when `nil`.
    case number(ClosedRange<Double>?)
    /// Any text (numbers in their shortest form).
    case text
    /// A non-empty name (a tab, a sheet, a context name).
    case name
    /// A duration: `250ms`, `2s`, `1m30s`.
    case duration
    /// A date: `2026-01-15`, `today-3d`, `now-2h`, resolved against the flow's `now`.
    case date
    /// One word of a fixed set; a near miss gets a "did you mean" hint.
    case word([String])
    /// `on`/`off` (`true`/`false`).
    case boolean
    /// A context path: names joined by `/` (`global/Class/assignments`).
    case contextPath

    /// The placeholder of the kind in a usage line.
    var placeholder: String {
      switch self {
      case .integer: "N"
      case .number: "NUMBER"
      case .text: "TEXT"
      case .name: "NAME"
      case .duration: "DURATION"
      case .date: "DATE"
      case .word(let words): words.joined(separator: "|")
      case .boolean: "on|off"
      case .contextPath: "CONTEXT-PATH"
      }
    }
  }

  /// Where an argument is written.
  public enum Position: Sendable, Hashable {
    /// In order, after the command's words.
    case positional
    /// As `name=value`, anywhere after the command's words.
    case keyword
    /// A fixed word that must appear at this place (`realtime push insight`); no value.
    case literal
  }

  /// The argument's name: the key of a keyword, the name a positional value is found under
  /// in `CommandArguments`, or the literal word.
  public let name: String
  /// Where it is written.
  public let position: Position
  /// What it takes.
  public let kind: Kind
  /// Whether a flow must give it.
  public let isRequired: Bool
  /// How the usage line shows the value (the kind's placeholder unless given).
  public let placeholder: String
  /// Whether the value is a secret (a password): every report, trace and diagnostic shows
  /// its text masked (see `secret()`).
  public private(set) var isSecret = false

  /// This argument, declared secret: the value reaches the command's `perform` as written,
  /// and everything Weft writes about the flow — the text, JSON and HTML reports, the trace,
  /// `file:line:col` diagnostics, the step text of a failure — shows the value's characters
  /// as `*`, one per character so every column and caret stays where it was. A `let`
  /// variable passed to it is masked on its `let` line too. `FlowCommand.secretArguments`
  /// and `CommandCatalog.secretArguments(of:)` publish the declaration to other writers.
  ///
  /// ```swift
  /// .keyword("password", .text, required: true).secret()
  /// ```
  ///
  /// - Complexity: O(1).
  public func secret() -> CommandArgument {
    var copy = self
    copy.isSecret = true
    return copy
  }

  /// A positional argument, read in declaration order; optional ones must come last.
  ///
  /// - Complexity: O(1).
  public static func positional(
    _ name: String, _ kind: Kind, placeholder: String? = nil, optional: Bool = false
  ) -> CommandArgument {
    CommandArgument(
      name: name, position: .positional, kind: kind, isRequired: !optional,
      placeholder: placeholder ?? kind.placeholder)
  }

  /// A `name=value` argument.
  ///
  /// - Complexity: O(1).
  public static func keyword(
    _ name: String, _ kind: Kind, placeholder: String? = nil, required: Bool = false
  ) -> CommandArgument {
    CommandArgument(
      name: name, position: .keyword, kind: kind, isRequired: required,
      placeholder: placeholder ?? kind.placeholder)
  }

  /// A fixed word the flow must write at this place among the positional arguments.
  ///
  /// - Complexity: O(1).
  public static func literal(_ word: String) -> CommandArgument {
    CommandArgument(
      name: word, position: .literal, kind: .text, isRequired: true, placeholder: word)
  }

  /// How the argument appears in a usage line: `NAME`, `[count=N]`, `title=TEXT`.
  package var usage: String {
    let written =
      switch position {
      case .positional, .literal: placeholder
      case .keyword: "\(name)=\(placeholder)"
      }
    return isRequired ? written : "[\(written)]"
  }
}
