import Foundation
import Testing
import WeftCore

private struct Row: Identifiable, Equatable, Hashable, Codable, Sendable {
  var id: Int
  var title: String
}

@Suite("IdentifiedArray")
struct IdentifiedArrayTests {
  private let a = Row(id: 1, title: "a")
  private let b = Row(id: 2, title: "b")
  private let c = Row(id: 3, title: "c")
  private let d = Row(id: 4, title: "d")

  @Test func looksUpByIDAndByOffset() {
    let rows: IdentifiedArray<Row> = [a, b, c]
    #expect(rows[id: 2] == b)
    #expect(rows[id: 9] == nil)
    #expect(rows.index(id: 3) == 2)
    #expect(rows.index(id: 9) == nil)
    #expect(rows[0] == a)
    #expect(rows.ids == [1, 2, 3])
    #expect(rows.map(\.title) == ["a", "b", "c"])
    #expect(rows.contains(id: 1) && !rows.contains(id: 4))
  }

  @Test func setsUpdatesAndRemovesThroughTheIDSubscript() {
    var rows: IdentifiedArray<Row> = [a, b]
    rows[id: 1]?.title = "A"
    #expect(rows[id: 1]?.title == "A")
    rows[id: 3] = c  // absent: appended
    #expect(rows.ids == [1, 2, 3])
    rows[id: 2] = nil  // removed
    #expect(rows.ids == [1, 3])
    #expect(rows.index(id: 3) == 1)
    #expect(rows.update(id: 3) { $0.title = "C" } != nil)
    #expect(rows.update(id: 9) { $0.title = "?" } == nil)
    #expect(rows[id: 3]?.title == "C")
  }

  @Test func insertsAndAppendsAnIDOnlyOnce() {
    var rows: IdentifiedArray<Row> = [a, c]
    #expect(rows.insert(b, at: 1) == (true, 1))
    #expect(rows.ids == [1, 2, 3])
    #expect(rows.insert(Row(id: 2, title: "again"), at: 0) == (false, 1))
    #expect(rows.append(Row(id: 1, title: "again")) == (false, 0))
    #expect(rows[id: 2] == b)
    #expect(rows.updateOrAppend(Row(id: 2, title: "B")) == b)
    #expect(rows.updateOrAppend(d) == nil)
    #expect(rows.map(\.title) == ["a", "B", "c", "d"])
    let merged = IdentifiedArray([a, b, Row(id: 1, title: "last")]) { _, new in new }
    #expect(merged.map(\.title) == ["last", "b"])
  }

  @Test func movesAsSwiftUIsOnMoveReportsIt() {
    var rows: IdentifiedArray<Row> = [a, b, c, d]
    rows.move(fromOffsets: [0], toOffset: 3)  // a after c
    #expect(rows.ids == [2, 3, 1, 4])
    rows.move(fromOffsets: [1, 3], toOffset: 0)  // c and d first, in order
    #expect(rows.ids == [3, 4, 2, 1])
    rows.move(fromOffsets: [0], toOffset: 4)  // to the end
    #expect(rows.ids == [4, 2, 1, 3])
    #expect(rows.index(id: 3) == 3 && rows.index(id: 4) == 0)
  }

  @Test func removesByOffsetsAndPredicate() {
    var rows: IdentifiedArray<Row> = [a, b, c, d]
    rows.remove(atOffsets: [0, 2])
    #expect(rows.ids == [2, 4])
    #expect(rows.index(id: 4) == 1 && rows.index(id: 1) == nil)
    rows.removeAll { $0.id == 2 }
    #expect(rows.ids == [4] && rows.index(id: 4) == 0)
    rows.removeAll()
    #expect(rows.isEmpty && rows[id: 4] == nil)
  }

  @Test func isEquatableHashableAndCodableAsAPlainArray() throws {
    let rows: IdentifiedArray<Row> = [a, b]
    #expect(rows == [a, b])
    #expect(rows != [b, a])
    #expect(Set([rows, [a, b]]).count == 1)
    let data = try JSONEncoder().encode(rows)
    #expect(try JSONDecoder().decode([Row].self, from: data) == [a, b])
    #expect(try JSONDecoder().decode(IdentifiedArray<Row>.self, from: data) == rows)
  }

  @Test func decodingARepeatedIDThrowsNamingIt() {
    let json = Data(#"[{"id":1,"title":"a"},{"id":2,"title":"b"},{"id":1,"title":"c"}]"#.utf8)
    #expect {
      try JSONDecoder().decode(IdentifiedArray<Row>.self, from: json)
    } throws: { error in
      guard case DecodingError.dataCorrupted(let context) = error else { return false }
      return context.debugDescription
        == "IdentifiedArray: elements 0 and 2 have the same id 1; ids must be unique"
    }
  }

  @Test func aRepeatedIDInUniqueElementsTraps() async {
    await #expect(processExitsWith: .failure) {
      _ = IdentifiedArray(uniqueElements: [Row(id: 1, title: "a"), Row(id: 1, title: "b")])
    }
  }

  /// Random operations against a plain array: after each one the order matches the model,
  /// every id is once, and every id's offset is its position.
  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func invariantsHoldUnderRandomOperations(seed: UInt64) {
    var random = Xorshift(state: seed)
    var rows = IdentifiedArray<Row>()
    var model: [Row] = []
    for step in 0..<2_000 {
      let id = Int(random.next() % 40)
      let row = Row(id: id, title: "\(step)")
      switch random.next() % 8 {
      case 0:
        rows.append(row)
        if !model.contains(where: { $0.id == id }) { model.append(row) }
      case 1:
        let offset = Int(random.next() % UInt64(model.count + 1))
        rows.insert(row, at: offset)
        if !model.contains(where: { $0.id == id }) { model.insert(row, at: offset) }
      case 2:
        rows.remove(id: id)
        model.removeAll { $0.id == id }
      case 3 where !model.isEmpty:
        let count = Int(random.next() % 3) + 1
        let offsets = Set((0..<count).map { _ in Int(random.next() % UInt64(model.count)) })
        let destination = Int(random.next() % UInt64(model.count + 1))
        rows.move(fromOffsets: offsets, toOffset: destination)
        let moved = offsets.sorted().map { model[$0] }
        let before = model.indices.filter { !offsets.contains($0) && $0 < destination }
        let after = model.indices.filter { !offsets.contains($0) && $0 >= destination }
        model = before.map { model[$0] } + moved + after.map { model[$0] }
      case 4:
        rows[id: id] = row
        if let offset = model.firstIndex(where: { $0.id == id }) {
          model[offset] = row
        } else {
          model.append(row)
        }
      case 5:
        rows[id: id] = nil
        model.removeAll { $0.id == id }
      case 6 where !model.isEmpty:
        let offsets = Set((0..<2).map { _ in Int(random.next() % UInt64(model.count)) })
        rows.remove(atOffsets: offsets)
        model = model.indices.filter { !offsets.contains($0) }.map { model[$0] }
      default:
        rows.sort { $0.title < $1.title }
        model.sort { $0.title < $1.title }
      }
      #expect(Array(rows) == model, "step \(step)")
      #expect(Set(rows.ids).count == rows.count)
      #expect(rows.indices.allSatisfy { rows.index(id: rows[$0].id) == $0 })
      if Array(rows) != model { return }
    }
  }
}

/// A small seeded generator for the random-operation test.
private struct Xorshift {
  var state: UInt64
  mutating func next() -> UInt64 {
    state ^= state << 13
    state ^= state >> 7
    state ^= state << 17
    return state
  }
}
