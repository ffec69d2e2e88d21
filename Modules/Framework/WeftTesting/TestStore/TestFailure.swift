/// A failed expectation of a `TestStore`: what went wrong, how to fix it, and the line of
/// the test that made the expectation.
///
/// The store reports failures through the function you give it; a Swift Testing suite
/// passes one that calls `Issue.record`:
///
/// ```swift
/// let store = TestStore(initial: State(), reduce: reduce, feedbacks: feedbacks) { failure in
///   Issue.record(
///     Comment(rawValue: failure.message),
///     sourceLocation: SourceLocation(
///       fileID: failure.location.fileID, filePath: failure.location.filePath,
///       line: failure.location.line, column: failure.location.column))
/// }
/// ```
///
/// > Important: The text of `message` is part of the API: tests pin it.
///
/// - Complexity: O(1).
/// - Note: Isolation: a `Sendable` value.
/// - Note: Allocations: the message.
public struct TestFailure: Sendable, Hashable, CustomStringConvertible {
  /// Where in the test the failed expectation was written.
  ///
  /// Made from the caller's `#fileID`, `#filePath`, `#line` and `#column`, it keeps the file
  /// path as the compile-time `StaticString` too (`staticFilePath`), which XCTest's `XCTFail`
  /// needs to point at the test's own line. Two locations are equal when their file, line and
  /// column are.
  public struct Location: Sendable, Hashable, CustomStringConvertible {
    /// `Module/File.swift`.
    public let fileID: String
    /// The file's full path.
    public let filePath: String
    /// The line, from 1.
    public let line: Int
    /// The column, from 1.
    public let column: Int
    /// The file's full path as written by the compiler, when the location was made from
    /// `#filePath` (what `XCTFail(_:file:line:)` takes); `nil` for one made from strings.
    public let staticFilePath: StaticString?

    /// Makes a location from the caller's literals: what `TestStore`'s methods take as their
    /// default arguments.
    ///
    /// - Complexity: O(p), p = the path's length.
    public init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
      self.fileID = fileID.description
      self.filePath = filePath.description
      self.line = Int(line)
      self.column = Int(column)
      self.staticFilePath = filePath
    }

    /// Makes a location from strings (a location read at run time).
    ///
    /// - Complexity: O(1).
    public init(fileID: String, filePath: String, line: Int, column: Int) {
      self.fileID = fileID
      self.filePath = filePath
      self.line = line
      self.column = column
      self.staticFilePath = nil
    }

    public static func == (lhs: Location, rhs: Location) -> Bool {
      lhs.fileID == rhs.fileID && lhs.filePath == rhs.filePath && lhs.line == rhs.line
        && lhs.column == rhs.column
    }

    public func hash(into hasher: inout Hasher) {
      hasher.combine(filePath)
      hasher.combine(line)
      hasher.combine(column)
    }

    public var description: String { "\(fileID):\(line):\(column)" }
  }

  /// What happened, where in the system, and how to fix it.
  public let message: String
  /// The caller's position.
  public let location: Location

  /// Makes a failure.
  public init(message: String, location: Location) {
    self.message = message
    self.location = location
  }

  public var description: String { "\(location): \(message)" }
}

/// How strictly a `TestStore` checks.
public enum Exhaustivity: Sendable, Hashable {
  /// Every state change must be asserted exactly, every event fed back by an effect must be
  /// received, and no effect may still run at the end (the default).
  case on
  /// Only what you assert is checked: a closure's changes must hold in the actual state,
  /// `receive` skips events until one matches, and effects left running are cancelled.
  case off
}

/// The effects a step launched and cancelled, by feedback name, in order.
///
/// ```swift
/// store.send(.query("b"), effects: .started("search").cancelling("search")) { $0.query = "b" }
/// ```
///
/// - Complexity: O(n) to compare, n = names.
/// - Note: Isolation: a `Sendable` value.
/// - Note: Allocations: the name arrays.
public struct EffectChanges: Sendable, Hashable, CustomStringConvertible {
  /// Feedbacks whose rule launched an effect, in launch order.
  public var started: [String]
  /// Feedbacks whose running effect was cancelled by its rule, in order.
  public var cancelled: [String]

  /// Makes a description of changes.
  public init(started: [String] = [], cancelled: [String] = []) {
    self.started = started
    self.cancelled = cancelled
  }

  /// No effect launched or cancelled. (Not `.none`, which an optional parameter would
  /// read as "do not check".)
  public static var nothing: EffectChanges { EffectChanges() }

  /// Effects launched by these feedbacks, none cancelled.
  public static func started(_ names: String...) -> EffectChanges { EffectChanges(started: names) }

  /// Effects of these feedbacks cancelled, none launched.
  public static func cancelled(_ names: String...) -> EffectChanges {
    EffectChanges(cancelled: names)
  }

  /// The same, with these feedbacks' effects cancelled too.
  public func cancelling(_ names: String...) -> EffectChanges {
    EffectChanges(started: started, cancelled: cancelled + names)
  }

  public var description: String {
    "started [\(started.joined(separator: ", "))], cancelled [\(cancelled.joined(separator: ", "))]"
  }
}
