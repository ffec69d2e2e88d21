import Foundation

extension Array {
  /// Moves the elements at `source` to before `destination`, as SwiftUI's
  /// `MutableCollection.move(fromOffsets:toOffset:)` does (the offsets `List.onMove` gives):
  /// Linux has no SwiftUI.
  ///
  /// - Complexity: O(n), n = count.
  mutating func move(fromOffsets source: IndexSet, toOffset destination: Int) {
    let moving = source.map { self[$0] }
    let before = source.count(in: 0..<destination)
    for index in source.reversed() { remove(at: index) }
    insert(contentsOf: moving, at: destination - before)
  }
}
