/// What waits for the next MainActor delivery at one level of the fan-out: a cell's changed
/// selector groups, or a delivery queue's changed cells. The first element is kept inline, so
/// a burst on one group of one cell (the common case) needs no array; later ones go to
/// `rest`. A level is waiting exactly when its batch is not empty: the cell is on its queue's
/// batch once its own batch turns non-empty, and leaves it when the drain takes the batch.
///
/// - Complexity: `append` O(1) amortized; `take` O(1).
/// - Note: Isolation: a value; each owner keeps it behind its lock.
/// - Note: Allocations: none for one element; the array's growth for more.
@usableFromInline
struct PendingBatch<Element> {
  @usableFromInline var first: Element?
  @usableFromInline var rest: ContiguousArray<Element> = []

  @usableFromInline init() {}

  /// Whether nothing is waiting.
  @inlinable var isEmpty: Bool { first == nil }

  /// Adds `element` after those already waiting.
  @inlinable mutating func append(_ element: Element) {
    if first == nil { first = element } else { rest.append(element) }
  }

  /// Takes every element out, leaving the batch empty.
  @inlinable mutating func take() -> PendingBatch {
    var taken = PendingBatch()
    swap(&taken, &self)
    return taken
  }

}

extension PendingBatch: Sequence {
  /// The elements in the order they were appended.
  @usableFromInline
  struct Iterator: IteratorProtocol {
    @usableFromInline let batch: PendingBatch
    @usableFromInline var index = -1

    @inlinable init(batch: PendingBatch) { self.batch = batch }

    @inlinable mutating func next() -> Element? {
      defer { index += 1 }
      if index < 0 { return batch.first }
      return index < batch.rest.count ? batch.rest[index] : nil
    }
  }

  @inlinable func makeIterator() -> Iterator { Iterator(batch: self) }
}
