import Foundation

/// A validated flow script: a name, an optional seed, and the concrete steps the simulator
/// runs in order.
///
/// A flow is plain text, one statement per line (see `docs/simulator-language.md`). Parsing
/// does all the checking a script can be given before it runs: every command, argument,
/// value, variable, path and brace is validated, loops are unrolled and variables are
/// substituted, so the runner receives only typed, concrete steps.
///
/// ```swift
/// let flow = try Flow.parse(
///   source: "login email=ada@example.com password=correct-horse\nexpect auth.state == authenticated",
///   file: "Flows/auth.flow",
///   knownPaths: ["auth.state"])
/// print(flow.steps.count)  // 2
/// ```
///
/// > Important: `parse` never traps on any input: every problem is a thrown `FlowError` that
/// > names `file:line:column`, shows the line with a caret and, where it can, suggests the
/// > nearest valid word.
///
/// - Note: Isolation: a `Sendable` value; parsing is a pure function of its arguments.
public struct Flow: Sendable, Equatable, Codable {
  /// The name given by `flow "name"`, or `nil` when the script does not name itself.
  public var name: String?
  /// The seed given by `seed N`, or `nil` (the runner then uses its own default or the
  /// command line's).
  public var seed: UInt64?
  /// The wall clock at launch given by `date INSTANT`, or `nil` (the runner then starts it at
  /// `Flow.defaultReferenceDate`). In a deterministic run `Date()` reads it at virtual time
  /// zero and it moves with virtual time.
  public var date: Date?
  /// The file name the flow was parsed from, as passed to `parse`; used in every location.
  public var file: String
  /// The steps in the order the runner executes them, with every loop unrolled.
  public var steps: [Step]

  /// Creates a flow from already validated parts; `parse` is the usual way to get one.
  ///
  /// - Complexity: O(1).
  public init(
    name: String? = nil, seed: UInt64? = nil, date: Date? = nil, file: String, steps: [Step]
  ) {
    self.name = name
    self.seed = seed
    self.date = date
    self.file = file
    self.steps = steps
  }
}

extension Flow {
  /// Parses and validates `source` into a flow.
  ///
  /// ```swift
  /// let flow = try Flow.parse(source: text, file: "Flows/auth.flow", knownPaths: paths)
  /// ```
  ///
  /// - Parameters:
  ///   - source: the flow text.
  ///   - file: the name used in locations and diagnostics (usually the path as given).
  ///   - knownPaths: the observable paths the runner can read (`auth.state`,
  ///     `outbox.count`, ...). A path in the flow must be one of them or a prefix of one
  ///     (`dashboard.summary` when `dashboard.summary.totalSteps` is known). `nil` accepts
  ///     any syntactically valid path.
  ///   - options: the reference date for `today`/`now`, the time zone and the limits.
  /// - Returns: the flow, with loops unrolled and variables substituted.
  /// - Throws: the first `FlowError` in the source: a syntax error; else the first
  ///   validation error in source order, with the errors of later top-level steps (up to
  ///   `maxReportedErrors` in all) in its `followingErrors`.
  /// - Complexity: O(n + s·a), n = characters in `source`, s = steps after unrolling
  ///   (at most `options.maxSteps`), a = arguments per step. Statements that use no
  ///   variable are validated once and reused in later loop iterations.
  public static func parse(
    source: String, file: String = "<flow>", knownPaths: Set<String>? = nil,
    options: ParseOptions = ParseOptions()
  ) throws(FlowError) -> Flow {
    let text = Source(file: file, text: source)
    var parser = Parser(
      tokens: try Lexer.tokenize(text, options: options), source: text, options: options)
    let statements: [Statement]
    do {
      statements = try parser.parseFile()
    } catch {
      throw text.masking(parser.secrets.spans).masking(error)
    }
    // From here on every line shows secret values masked.
    let masked = text.masking(parser.secrets.allSpans(in: statements))
    var evaluator = Evaluator(
      environment: Environment(source: masked, knownPaths: knownPaths, options: options))
    var errors = parser.skippedErrors.map(masked.masking)
    do {
      let flow = try evaluator.evaluate(statements)
      if errors.isEmpty { return flow }
    } catch {
      errors.append(error)
      errors += error.followingErrors ?? []
    }
    errors.sort { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
    var first = errors[0]
    let rest = errors.dropFirst().prefix(maxReportedErrors - 1).map { error -> FlowError in
      var error = error
      error.followingErrors = nil
      return error
    }
    first.followingErrors = rest.isEmpty ? nil : Array(rest)
    throw first
  }

  /// The most errors one parse reports: the first, and up to this many less one in its
  /// `followingErrors`.
  public static let maxReportedErrors = 20

  /// Reads the file at `path` and parses it; the path is used as the file name in
  /// diagnostics.
  ///
  /// - Throws: `FlowError` of kind `.unreadableFile` when the file cannot be read as UTF-8,
  ///   or any error `parse(source:file:knownPaths:options:)` throws.
  /// - Complexity: as `parse(source:file:knownPaths:options:)`, plus reading the file.
  public static func load(
    path: String, knownPaths: Set<String>? = nil, options: ParseOptions = ParseOptions()
  ) throws(FlowError) -> Flow {
    let source: String
    do {
      source = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      throw FlowError(
        kind: .unreadableFile, location: SourceLocation(file: path, line: 1, column: 1),
        length: 1, message: "cannot read flow file '\(path)'",
        hint: "check that the file exists and is UTF-8 text", sourceLine: "")
    }
    return try parse(source: source, file: path, knownPaths: knownPaths, options: options)
  }

  /// The instant `today` and `now` resolve against unless `ParseOptions` says otherwise:
  /// 2026-01-15 09:00:00 UTC. Fixed, so that a flow resolves to the same dates on every run.
  public static let defaultReferenceDate = Date(timeIntervalSince1970: 1_768_467_600)
}

extension Flow {
  /// A place in a flow file: 1-based line and column (columns count Unicode scalars).
  ///
  /// - Note: Isolation: a `Sendable` value.
  public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file name, as passed to `Flow.parse`.
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// The 1-based column, in Unicode scalars.
    public var column: Int

    /// Creates a location.
    ///
    /// - Complexity: O(1).
    public init(file: String, line: Int, column: Int) {
      self.file = file
      self.line = line
      self.column = column
    }

    /// `file:line:column`, the form compilers and editors understand.
    public var description: String { "\(file):\(line):\(column)" }
  }

  /// What `today`/`now` mean and how large a flow may grow.
  ///
  /// - Note: Isolation: a `Sendable` value.
  public struct ParseOptions: Sendable, Equatable {
    /// The instant `now` denotes; `today` is the start of its day in `timeZone`. The runner
    /// passes its virtual clock's start so that dates are deterministic.
    public var now: Date
    /// The time zone for `today`, calendar dates and day offsets. UTC by default.
    public var timeZone: TimeZone
    /// The most steps a flow may expand to after unrolling loops (1,000,000 by default).
    public var maxSteps: Int {
      didSet { maxSteps = max(0, maxSteps) }
    }
    /// The deepest nesting of `{ }` blocks and of parentheses in `$(...)` (32 by default,
    /// at most 256 so that recursion stays shallow whatever the input).
    public var maxNesting: Int {
      didSet { maxNesting = min(256, max(1, maxNesting)) }
    }
    /// The commands flows may use: the engine's and a plug-in's (`SimulatorPlugin.catalog`).
    public var commands: CommandCatalog
    /// Variables given on the command line (`--define NAME=VALUE`), read in a flow as
    /// `$NAME`. A value that reads as a number is a number; anything else is text. A
    /// top-level `let NAME = …` of the flow is its default: a define of the same name wins.
    public var defines: [String: String] = [:]
    /// The words each enumeration-valued path can show (`SimulatedApp.observablePathValues`):
    /// `expect PATH == WORD` and `wait` with any other word are refused, with the nearest.
    public var pathValues: [String: [String]] = [:]

    /// Creates options.
    ///
    /// - Complexity: O(1).
    public init(
      now: Date = Flow.defaultReferenceDate,
      timeZone: TimeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current,
      maxSteps: Int = 1_000_000, maxNesting: Int = 32, commands: CommandCatalog = .engine,
      defines: [String: String] = [:], pathValues: [String: [String]] = [:]
    ) {
      self.commands = commands
      self.defines = defines
      self.pathValues = pathValues
      self.now = now
      self.timeZone = timeZone
      self.maxSteps = max(0, maxSteps)
      self.maxNesting = min(256, max(1, maxNesting))
    }
  }
}
