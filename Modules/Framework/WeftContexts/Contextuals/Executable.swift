/// The namespace of executables: functions a context runs by name for anyone at or below it.
///
/// ```swift
/// extension Executable.Name {
///   static let swapWeightInputViews = Executable.Name("swap-weight-input-views")
/// }
///
/// addExecutable(.swapWeightInputViews, executing: { [unowned self] in self.swap() },
///               expiresWith: self)
/// assignmentsContext.execute(.swapWeightInputViews)
/// ```
///
/// - Note: Isolation: names are `Sendable` values; executables live on the MainActor.
public enum Executable {
  /// The typed name of an executable.
  ///
  /// - Complexity: hashing and comparing are O(n), n = the length of the raw string.
  /// - Note: Allocations: none for names of up to 15 UTF-8 bytes; one otherwise.
  public struct Name: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
  {
    /// The name as written, used in error messages.
    public let rawValue: String

    /// Makes a name.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public init(rawValue: String) { self.rawValue = rawValue }

    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }
  }
}
