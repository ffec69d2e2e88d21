/// A first-in first-out queue with O(1) amortized push and pop.
///
/// Pops advance a head index; the storage is compacted when the consumed prefix is at least
/// half of it, so memory stays proportional to the queued elements.
///
/// - Complexity: `append` and `popFirst` are O(1) amortized.
/// - Note: Allocations: grows like `Array`; none per pop.
struct FIFO<Element> {
  private var storage: [Element] = []
  private var head = 0

  var isEmpty: Bool { head == storage.count }
  var count: Int { storage.count - head }

  mutating func append(_ element: Element) { storage.append(element) }

  mutating func popFirst() -> Element? {
    guard head < storage.count else { return nil }
    let element = storage[head]
    head += 1
    if head == storage.count {
      storage.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 32 && head * 2 >= storage.count {
      storage.removeFirst(head)
      head = 0
    }
    return element
  }

  mutating func removeAll() {
    storage.removeAll()
    head = 0
  }
}

extension FIFO: Sendable where Element: Sendable {}
