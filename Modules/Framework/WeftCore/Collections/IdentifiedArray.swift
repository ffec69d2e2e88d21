/// An ordered collection of `Identifiable` elements with at most one element per id, and
/// O(1) look-up by id: the rows of a list, the todos of a todo list.
///
/// ```swift
/// var todos: IdentifiedArray<Todo> = [milk, eggs]
/// todos[id: milk.id]?.isComplete = true        // O(1) look-up, in place
/// todos.append(bread)
/// todos.move(fromOffsets: [2], toOffset: 0)     // bread first
/// todos.remove(id: eggs.id)
/// ```
///
/// It is a `RandomAccessCollection` indexed by offset (`todos[0]`, `for todo in todos`,
/// `todos.map`), so everything that reads an array reads it. Writes go through members that
/// keep the one-element-per-id rule: an element whose id is already present is not inserted
/// again, and `subscript(id:)` never changes an element's id.
///
/// It conforms to `Equatable`, `Hashable`, `Sendable`, `Encodable` and `Decodable` when its
/// elements (and their ids) do; it encodes as a plain array, and decoding an array that holds
/// two elements with one id throws a `DecodingError` naming the id.
///
/// # Performance
/// Storage is an array of the elements plus a dictionary from id to offset. Reads by offset
/// or by id, appends and in-place updates are O(1); an insertion, removal or move in the
/// middle is O(n), like an array's, because the offsets of the elements after it change.
///
/// - Complexity: `subscript(id:)`, `index(id:)`, `contains(id:)`: O(1) expected;
///   `append`: amortized O(1); `insert(_:at:)`, `remove(id:)`, `remove(at:)`: O(n);
///   `move(fromOffsets:toOffset:)`: O(n + k log k), k = offsets moved.
/// - Note: Isolation: a value type; `Sendable` when its elements and ids are.
/// - Note: Allocations: copy-on-write storage, as `Array` and `Dictionary`.
public struct IdentifiedArray<Element: Identifiable> {
  /// The elements, in order.
  public private(set) var elements: [Element]
  /// Each element's offset in `elements`, by id.
  private var offsets: [Element.ID: Int]

  /// An empty collection.
  ///
  /// - Complexity: O(1).
  public init() {
    elements = []
    offsets = [:]
  }

  /// A collection of `elements`, in order, whose ids must all differ.
  ///
  /// > Important: Two elements with one id are a programming error and trap, as
  /// > `Dictionary(uniqueKeysWithValues:)` does. Use `init(_:uniquingIDsWith:)` for input
  /// > that may repeat an id.
  ///
  /// - Complexity: O(n).
  public init(uniqueElements: some Sequence<Element>) {
    self.init()
    for element in uniqueElements {
      let (inserted, _) = append(element)
      precondition(
        inserted, "IdentifiedArray(uniqueElements:): the id \(element.id) appears twice")
    }
  }

  /// A collection of `elements`, in order; when an id repeats, `combine` chooses the element
  /// kept (at the first one's position).
  ///
  /// - Complexity: O(n).
  public init(
    _ elements: some Sequence<Element>,
    uniquingIDsWith combine: (Element, Element) throws -> Element
  ) rethrows {
    self.init()
    for element in elements {
      if let offset = offsets[element.id] {
        self.elements[offset] = try combine(self.elements[offset], element)
      } else {
        append(element)
      }
    }
  }

  /// The ids, in order.
  ///
  /// - Complexity: O(n) to make the array.
  public var ids: [Element.ID] { elements.map(\.id) }

  /// The offset of the element with `id`, or nil.
  ///
  /// - Complexity: O(1) expected.
  public func index(id: Element.ID) -> Int? { offsets[id] }

  /// Whether an element has `id`.
  ///
  /// - Complexity: O(1) expected.
  public func contains(id: Element.ID) -> Bool { offsets[id] != nil }

  /// The element with `id`, or nil. Setting an element replaces the one with `id` in place
  /// (or appends it if none has that id); setting nil removes it.
  ///
  /// ```swift
  /// todos[id: id]?.isComplete.toggle()
  /// ```
  ///
  /// > Important: Setting an element whose own id is not `id` traps: it would leave two
  /// > ids for one position.
  ///
  /// - Complexity: get and replace: O(1) expected; append: amortized O(1); remove: O(n).
  public subscript(id id: Element.ID) -> Element? {
    get { offsets[id].map { elements[$0] } }
    set {
      guard let newValue else {
        remove(id: id)
        return
      }
      precondition(
        newValue.id == id,
        "IdentifiedArray[id: \(id)] was set to an element whose id is \(newValue.id)")
      if let offset = offsets[id] {
        elements[offset] = newValue
      } else {
        append(newValue)
      }
    }
  }

  /// Runs `body` on the element with `id`, in place (no copy of the element).
  ///
  /// ```swift
  /// todos.update(id: id) { $0.isComplete.toggle() }
  /// ```
  ///
  /// > Important: `body` must not change the element's id (that traps).
  ///
  /// - Returns: what `body` returned, or nil when no element has `id` (`body` is not run).
  /// - Complexity: O(1) expected, plus `body`.
  @discardableResult
  public mutating func update<Result>(
    id: Element.ID, _ body: (inout Element) throws -> Result
  ) rethrows -> Result? {
    guard let offset = offsets[id] else { return nil }
    let result = try body(&elements[offset])
    precondition(
      elements[offset].id == id, "IdentifiedArray.update(id: \(id)) changed the element's id")
    return result
  }

  /// Appends `element` unless an element with its id is present.
  ///
  /// - Returns: whether it was inserted, and the offset of the element with its id.
  /// - Complexity: amortized O(1).
  @discardableResult
  public mutating func append(_ element: Element) -> (inserted: Bool, index: Int) {
    if let offset = offsets[element.id] { return (false, offset) }
    offsets[element.id] = elements.count
    elements.append(element)
    return (true, elements.count - 1)
  }

  /// Appends each element whose id is not present yet, in order.
  ///
  /// - Complexity: amortized O(1) per element.
  public mutating func append(contentsOf newElements: some Sequence<Element>) {
    for element in newElements { append(element) }
  }

  /// Inserts `element` at `offset` unless an element with its id is present (then nothing
  /// moves).
  ///
  /// - Returns: whether it was inserted, and the offset of the element with its id.
  /// - Complexity: O(n).
  @discardableResult
  public mutating func insert(_ element: Element, at offset: Int) -> (inserted: Bool, index: Int) {
    if let existing = offsets[element.id] { return (false, existing) }
    elements.insert(element, at: offset)
    reindex(from: offset)
    return (true, offset)
  }

  /// Replaces the element with `element`'s id, or appends it.
  ///
  /// - Returns: the element it replaced, if any.
  /// - Complexity: O(1) expected; amortized O(1) to append.
  @discardableResult
  public mutating func updateOrAppend(_ element: Element) -> Element? {
    if let offset = offsets[element.id] {
      defer { elements[offset] = element }
      return elements[offset]
    }
    append(element)
    return nil
  }

  /// Removes the element with `id`.
  ///
  /// - Returns: the element removed, or nil if none had `id`.
  /// - Complexity: O(n).
  @discardableResult
  public mutating func remove(id: Element.ID) -> Element? {
    guard let offset = offsets[id] else { return nil }
    return remove(at: offset)
  }

  /// Removes the element at `offset`.
  ///
  /// - Complexity: O(n).
  @discardableResult
  public mutating func remove(at offset: Int) -> Element {
    let element = elements.remove(at: offset)
    offsets[element.id] = nil
    reindex(from: offset)
    return element
  }

  /// Removes the elements at `offsets` (an `IndexSet`, a `Set<Int>`, any sequence of
  /// offsets).
  ///
  /// - Complexity: O(n + k log k), k = offsets.
  public mutating func remove(atOffsets removed: some Sequence<Int>) {
    let removing = Set(removed)
    guard !removing.isEmpty else { return }
    var kept: [Element] = []
    kept.reserveCapacity(elements.count - removing.count)
    for (offset, element) in elements.enumerated() {
      if removing.contains(offset) { offsets[element.id] = nil } else { kept.append(element) }
    }
    elements = kept
    reindex(from: 0)
  }

  /// Removes the elements that satisfy `shouldBeRemoved`.
  ///
  /// - Complexity: O(n).
  public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    var removedAny = false
    try elements.removeAll { element in
      guard try shouldBeRemoved(element) else { return false }
      offsets[element.id] = nil
      removedAny = true
      return true
    }
    if removedAny { reindex(from: 0) }
  }

  /// Removes every element.
  ///
  /// - Complexity: O(n).
  public mutating func removeAll() {
    elements.removeAll()
    offsets.removeAll()
  }

  /// Moves the elements at `source` (kept in their order) to just before the element at
  /// `destination` of the collection before the move, as SwiftUI's `onMove` reports it
  /// (`destination` may be `count`: the end).
  ///
  /// ```swift
  /// todos.move(fromOffsets: [0], toOffset: 3)   // the first of [a, b, c, d] after c
  /// ```
  ///
  /// - Complexity: O(n + k log k), k = offsets moved.
  public mutating func move(fromOffsets source: some Sequence<Int>, toOffset destination: Int) {
    let moving = Set(source)
    guard !moving.isEmpty else { return }
    var before: [Element] = []
    var moved: [Element] = []
    var after: [Element] = []
    for (offset, element) in elements.enumerated() {
      if moving.contains(offset) {
        moved.append(element)
      } else if offset < destination {
        before.append(element)
      } else {
        after.append(element)
      }
    }
    elements = before + moved + after
    reindex(from: 0)
  }

  /// Sorts the elements in place.
  ///
  /// - Complexity: O(n log n).
  public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
    try elements.sort(by: areInIncreasingOrder)
    reindex(from: 0)
  }

  /// Records the offsets of the elements from `start` on.
  private mutating func reindex(from start: Int) {
    for offset in start..<elements.count { offsets[elements[offset].id] = offset }
  }
}

extension IdentifiedArray: Sendable where Element: Sendable, Element.ID: Sendable {}
