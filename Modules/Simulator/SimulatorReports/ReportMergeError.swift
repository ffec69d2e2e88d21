/// Why `weft-sim merge` refused its reports: which files disagree and how.
///
/// - Note: Isolation: a value; `Sendable`.
public struct ReportMergeError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong, naming the files.
  public var message: String

  /// Makes an error.
  public init(_ message: String) { self.message = message }

  /// `cannot merge: MESSAGE`.
  public var description: String { "cannot merge: \(message)" }
}
