/// A problem in a flow file: what is wrong, where, and how to fix it.
///
/// `description` renders it the way compilers do, and the text is API (tests pin it):
///
/// ```
/// Flows/login.flow:3:1: error: unknown command 'logn'
///     3 | logn email=ada@example.com
///       | ^~~~
/// hint: did you mean 'login'?
/// ```
///
/// - Note: Isolation: a `Sendable` value.
public struct FlowError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
  /// What kind of problem it is; stable, for tools and tests.
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A statement starts with a word that is no command.
    case unknownCommand
    /// A `key=` that the command does not take.
    case unknownArgument
    /// A required argument is missing.
    case missingArgument
    /// More positional arguments than the command takes, or an argument that does not
    /// apply in this combination.
    case unexpectedArgument
    /// The same `key=` twice in one statement.
    case duplicateArgument
    /// A value of the wrong kind: a word where a duration is needed, a decimal where a
    /// count is needed, a string where a path is needed, ...
    case wrongValueKind
    /// A word outside a fixed set (a metric, a range, a fault kind, ...).
    case unknownEnumWord
    /// A number outside the range the argument allows.
    case valueOutOfRange
    /// A `"` with no closing `"` on the same line.
    case unterminatedString
    /// A backslash escape other than `\"`, `\\`, `\n`, `\t`, `\$`.
    case invalidEscape
    /// A `{` never closed, a `}` never opened, or a `repeat` without its block.
    case unbalancedBrace
    /// A block after a command that takes none.
    case unexpectedBlock
    /// `$name` where no variable of that name is visible.
    case unknownVariable
    /// `let` of a name already defined in the same block.
    case duplicateVariable
    /// Something that starts like a number but is not one (`12x`, `1.2.3`, too large).
    case badNumber
    /// Something that should be a date but is not a valid one (`2026-02-30`).
    case badDate
    /// A `repeat` count that is not a positive whole number.
    case badRepeatCount
    /// The flow unrolls to more steps than the limit allows.
    case stepCapExceeded
    /// A path that the runner does not know.
    case unknownPath
    /// Something that should be a dotted path but is not one.
    case badPath
    /// A second `flow "name"`.
    case duplicateFlow
    /// A second `seed N`.
    case duplicateSeed
    /// A second `date INSTANT`.
    case duplicateDate
    /// `flow` after other statements, or `flow`/`seed`/`date` inside a block.
    case misplacedStatement
    /// Division (or remainder) by zero in `$(...)`.
    case divisionByZero
    /// Integer overflow or a non-finite result in `$(...)`.
    case arithmeticOverflow
    /// A malformed `$(...)` expression.
    case badExpression
    /// Tokens that do not form a statement (`=` in the wrong place, a stray character).
    case syntax
    /// Blocks or parentheses nested deeper than the limit.
    case nestingTooDeep
    /// `views detach` of a group that is not attached (or not that many views).
    case unknownViewGroup
    /// `Flow.load` could not read the file.
    case unreadableFile
  }

  /// What kind of problem it is.
  public var kind: Kind
  /// Where it starts.
  public var location: Flow.SourceLocation
  /// How many columns the caret underlines (at least 1).
  public var length: Int
  /// What happened, in one line.
  public var message: String
  /// How to fix it, when there is something specific to say.
  public var hint: String?
  /// The source line the problem is on (empty when there is none).
  public var sourceLine: String
  /// Further errors of the same file after this one, in source order (validation goes on
  /// past a bad step at the top level, so `check` reports up to `Flow.maxReportedErrors` at
  /// once); `nil` when this is the only one.
  public var followingErrors: [FlowError]?

  /// Creates an error.
  ///
  /// - Complexity: O(1).
  public init(
    kind: Kind, location: Flow.SourceLocation, length: Int, message: String,
    hint: String? = nil, sourceLine: String
  ) {
    self.kind = kind
    self.location = location
    self.length = max(1, length)
    self.message = message
    self.hint = hint
    self.sourceLine = sourceLine
  }

  /// The compiler-style rendering: `file:line:col: error: message`, the numbered source line,
  /// a caret line under the problem, and `hint: ...` when there is a hint.
  ///
  /// - Complexity: O(c), c = characters in the source line.
  public var description: String {
    let first = Self.render(
      location: location, length: length, sourceLine: sourceLine, message: message, hint: hint)
    guard let followingErrors, !followingErrors.isEmpty else { return first }
    return ([first] + followingErrors.map(\.description)).joined(separator: "\n")
  }

  /// Renders any message about a place in a flow file the way `description` does, so the
  /// runner's step failures read exactly like parse errors.
  ///
  /// ```
  /// Flows/auth.flow:12:1: error: expected auth.state == authenticated, got failed
  ///    12 | expect auth.state == authenticated
  ///       | ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
  /// ```
  ///
  /// - Parameters:
  /// A line longer than 160 Unicode scalars is shown as a 160-column window around the
  /// column, with `…` where it was cut, so a message about a 1 MB line stays small.
  ///
  /// - Parameters:
  ///   - location: where the caret starts.
  ///   - length: how many columns to underline (at least 1, clipped to the line).
  ///   - sourceLine: the line's text; tabs in it before the column are kept in the caret line.
  ///   - message: what happened.
  ///   - hint: how to fix it, if there is something to say.
  /// - Complexity: O(c), c = characters in the source line.
  public static func render(
    location: Flow.SourceLocation, length: Int, sourceLine: String, message: String,
    hint: String? = nil
  ) -> String {
    render(
      location: location, length: length,
      window: LineWindow(line: sourceLine, column: location.column), message: message, hint: hint)
  }

  /// `render(location:length:sourceLine:message:hint:)` with the line already cut to its
  /// window.
  ///
  /// - Complexity: O(w + m), w = the window's length, m = the message's.
  static func render(
    location: Flow.SourceLocation, length: Int, window: LineWindow, message: String,
    hint: String? = nil
  ) -> String {
    let number = String(location.line)
    let width = max(5, number.count)
    let gutter = String(repeating: " ", count: width - number.count) + number + " |"
    let blank = String(repeating: " ", count: width) + " |"
    var text = "\(location): error: \(message)\n"
    text += window.text.isEmpty ? gutter : gutter + " " + window.text
    text +=
      "\n" + blank + " " + caretLine(column: window.caretColumn, length: length, window.text)
    if let hint { text += "\nhint: " + hint }
    return text
  }

  /// Spaces (tabs where the source has tabs, so the caret lines up) to the column, then
  /// `^` and `~` for the rest of the length, clipped to the end of the line.
  private static func caretLine(column: Int, length: Int, _ sourceLine: String) -> String {
    let scalars = Array(sourceLine.unicodeScalars)
    let start = max(0, column - 1)
    var prefix = ""
    for index in 0..<start {
      prefix.append(index < scalars.count && scalars[index] == "\t" ? "\t" : " ")
    }
    let available = max(1, scalars.count - start)
    let shown = max(1, min(length, available))
    return prefix + "^" + String(repeating: "~", count: shown - 1)
  }
}
