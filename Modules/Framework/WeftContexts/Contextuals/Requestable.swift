/// The namespace of requestables: values a context answers by name to anyone at or below it.
///
/// ```swift
/// extension Requestable.Name {
///   static let totalWeight = Requestable.Name("total-weight")
/// }
///
/// context.addRequestable(.totalWeight, requesting: { [unowned self] in self.weight },
///                        ifAttached: self)
/// let total: Double? = subcontext.request(.totalWeight)
/// ```
///
/// - Note: Isolation: names are `Sendable` values; requestables live on the MainActor.
public enum Requestable {
  /// The typed name of a requestable.
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
