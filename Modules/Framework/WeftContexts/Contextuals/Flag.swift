/// The namespace of flags: named booleans a context sets for itself and everything below it.
///
/// ```swift
/// extension Flag.Name {
///   static let totalFieldSetByUser = Flag.Name("total-field-set-by-user")
/// }
///
/// context.setFlag(.totalFieldSetByUser)
/// subcontext.flagIsSet(.totalFieldSetByUser)   // true
/// ```
///
/// - Note: Isolation: names are `Sendable` values; flags live on the MainActor.
public enum Flag {
  /// The typed name of a flag.
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
