import Foundation

/// A checked argument value, of the kind its `CommandArgument` declares.
///
/// - Note: Isolation: a `Sendable` value.
public enum ArgumentValue: Sendable, Hashable, Codable, CustomStringConvertible {
  /// `.integer` arguments.
  case integer(Int)
  /// `.number` arguments.
  case number(Double)
  /// `.text`, `.name` and `.contextPath` arguments.
  case text(String)
  /// `.duration` arguments.
  case duration(Duration)
  /// `.date` arguments.
  case date(Date)
  /// `.word` arguments: the word written.
  case word(String)
  /// `.boolean` arguments.
  case boolean(Bool)

  public var description: String {
    switch self {
    case .integer(let value): String(value)
    case .number(let value): NumberText.format(value)
    case .text(let value), .word(let value): value
    case .duration(let value): DurationText.format(value)
    case .date(let value): value.ISO8601Format()
    case .boolean(let value): value ? "on" : "off"
    }
  }
}

/// The checked arguments of one plug-in step, by name, in the order the flow wrote them
/// (positional arguments first, then keywords as written).
///
/// Accessors return `nil` for an argument the flow left out; SimulatorKit's `required…` forms
/// throw a `SimulationError` instead (a declared required argument is always there, so they
/// only throw when a command reads a name it did not declare — a failed step, never a crash).
///
/// - Complexity: lookups O(a), a = arguments of the step (a handful).
/// - Note: Isolation: a `Sendable` value.
public struct CommandArguments: Sendable, Hashable, Codable {
  /// One argument as written.
  public struct Entry: Sendable, Hashable, Codable {
    /// The argument's declared name.
    public var name: String
    /// Its checked value.
    public var value: ArgumentValue
  }

  /// Every argument given, in the order written.
  public private(set) var entries: [Entry] = []

  /// Makes arguments from `(name, value)` pairs, in order (tests and hand-built steps).
  ///
  /// - Complexity: O(a).
  public init(_ pairs: KeyValuePairs<String, ArgumentValue> = [:]) {
    entries = pairs.map { Entry(name: $0.key, value: $0.value) }
  }

  mutating func append(_ name: String, _ value: ArgumentValue) {
    entries.append(Entry(name: name, value: value))
  }

  /// The value of `name`, if given.
  public subscript(_ name: String) -> ArgumentValue? {
    entries.first { $0.name == name }?.value
  }

  /// Whether `name` was given.
  public func has(_ name: String) -> Bool { self[name] != nil }

  /// A text, name, context path or word argument.
  public func text(_ name: String) -> String? {
    switch self[name] {
    case .text(let value), .word(let value): value
    default: nil
    }
  }

  /// An integer argument.
  public func integer(_ name: String) -> Int? {
    if case .integer(let value) = self[name] { value } else { nil }
  }

  /// A number argument (integers widen).
  public func number(_ name: String) -> Double? {
    switch self[name] {
    case .number(let value): value
    case .integer(let value): Double(value)
    default: nil
    }
  }

  /// A duration argument.
  public func duration(_ name: String) -> Duration? {
    if case .duration(let value) = self[name] { value } else { nil }
  }

  /// A date argument.
  public func date(_ name: String) -> Date? {
    if case .date(let value) = self[name] { value } else { nil }
  }

  /// A boolean argument.
  public func boolean(_ name: String) -> Bool? {
    if case .boolean(let value) = self[name] { value } else { nil }
  }
}
