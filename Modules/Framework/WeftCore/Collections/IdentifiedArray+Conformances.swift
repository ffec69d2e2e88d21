extension IdentifiedArray: RandomAccessCollection {
  public typealias Index = Int

  public var startIndex: Int { 0 }
  public var endIndex: Int { elements.count }
  public var count: Int { elements.count }
  public var isEmpty: Bool { elements.isEmpty }

  /// The element at `position` (an offset).
  ///
  /// - Complexity: O(1).
  public subscript(position: Int) -> Element { elements[position] }

  public func index(after offset: Int) -> Int { offset + 1 }
  public func index(before offset: Int) -> Int { offset - 1 }
}

extension IdentifiedArray: ExpressibleByArrayLiteral {
  /// A collection of the literal's elements, whose ids must all differ.
  ///
  /// - Complexity: O(n).
  public init(arrayLiteral elements: Element...) { self.init(uniqueElements: elements) }
}

extension IdentifiedArray: Equatable where Element: Equatable {
  /// Equal when they hold equal elements in the same order.
  ///
  /// - Complexity: O(n).
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elements == rhs.elements }
}

extension IdentifiedArray: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) { hasher.combine(elements) }
}

extension IdentifiedArray: CustomStringConvertible {
  public var description: String { elements.description }
}

extension IdentifiedArray: Encodable where Element: Encodable {
  /// Encodes the elements as an array.
  ///
  /// - Complexity: O(n).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(elements)
  }
}

extension IdentifiedArray: Decodable where Element: Decodable {
  /// Decodes an array of elements.
  ///
  /// - Throws: `DecodingError.dataCorrupted` when two elements have one id, naming it and its
  ///   two positions.
  /// - Complexity: O(n).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let decoded = try container.decode([Element].self)
    self.init()
    for (offset, element) in decoded.enumerated() {
      let (inserted, first) = append(element)
      guard inserted else {
        throw DecodingError.dataCorruptedError(
          in: container,
          debugDescription:
            "IdentifiedArray: elements \(first) and \(offset) have the same id \(element.id); "
            + "ids must be unique")
      }
    }
  }
}
