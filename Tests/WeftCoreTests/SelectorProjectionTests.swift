import Testing

@testable import WeftCore

/// Key-path selectors read a stored property at its byte offset (found once, when the
/// selector is made) and every other key path through the standard library: both must give
/// exactly what `state[keyPath:]` gives, and values read at an offset must own what they hold.
@Suite("StateSelector projection")
struct SelectorProjectionTests {
  final class Box: Sendable {
    let value: Int
    init(_ value: Int) { self.value = value }
  }

  struct Inner: Sendable, Equatable {
    var label = "a"
    var tags: [String] = []
    var score = 0.0
  }

  struct Outer: Sendable {
    var flag = false
    var inner = Inner()
    var optional: Int?
    var count = 0
    let box = Box(7)
    weak var weakBox: Box?
    var doubled: Int { count * 2 }
  }

  static let sample = Outer(
    flag: true,
    inner: Inner(label: String(repeating: "long label ", count: 8), tags: ["x", "y"], score: 2.5),
    optional: 42, count: 21)

  @Test func storedPropertiesAreReadAtTheirOffsetAndMatchTheKeyPath() {
    let state = Self.sample
    #expect(MemoryLayout<Outer>.offset(of: \Outer.inner.label) != nil)
    #expect(StateSelector(\Outer.flag).project(state) == true)
    #expect(StateSelector(\Outer.inner).project(state) == state.inner)
    #expect(StateSelector(\Outer.inner.label).project(state) == state.inner.label)
    #expect(StateSelector(\Outer.inner.tags).project(state) == ["x", "y"])
    #expect(StateSelector(\Outer.inner.score).project(state) == 2.5)
    #expect(StateSelector(\Outer.optional).project(state) == 42)
    #expect(StateSelector(\Outer.count).project(state) == 21)
  }

  @Test func computedClassAndWeakPathsGoThroughTheKeyPath() {
    var state = Self.sample
    let box = Box(9)
    state.weakBox = box
    #expect(MemoryLayout<Outer>.offset(of: \Outer.doubled) == nil)
    #expect(MemoryLayout<Outer>.offset(of: \Outer.box.value) == nil)
    #expect(MemoryLayout<Outer>.offset(of: \Outer.weakBox) == nil)  // weak storage is no `Box?`
    #expect(StateSelector(\Outer.doubled).project(state) == 42)
    #expect(StateSelector(\Outer.box.value).project(state) == 7)
    #expect(StateSelector(id: "weak") { $0.weakBox?.value }.project(state) == 9)
    #expect(StateSelector(\Outer.weakBox?.value).project(state) == 9)
    withExtendedLifetime(box) {}
  }

  @Test func aValueReadAtAnOffsetOutlivesTheStateItCameFrom() {
    let cell = StateCell(Outer(), name: "SelectorProjection.strings")
    let labels = Recorder<String>()
    let token = cell.observeSynchronously(\.inner.label) { labels.append($0.value) }
    for round in 1...3 {
      cell.update { $0.inner.label = String(repeating: "round \(round) ", count: 10) }
    }
    cell.update { $0.inner.label = "" }  // the old heap strings now live only in `labels`
    #expect(
      labels.values == (1...3).map { String(repeating: "round \($0) ", count: 10) } + [""])
    token.cancel()
  }
}

@Suite("MainActor jobs started from a delivery")
struct NestedMainActorJobTests {
  /// A MainActor subscriber of one cell commits to another: the second cell's job is
  /// scheduled while the first job is still running, and runs on its own.
  @Test func aCommitInsideAMainActorDeliveryGetsItsOwnJob() async {
    let source = StateCell(Profile(), name: "NestedJobs.source")
    let mirror = StateCell(Profile(), name: "NestedJobs.mirror")
    let delivered = AsyncStream<Int>.makeStream()
    let forward = source.observeOnMainActor(\.visits) { change in
      mirror.update { $0.visits = change.value * 10 }
    }
    let watch = mirror.observeOnMainActor(\.visits) { delivered.continuation.yield($0.value) }
    source.update { $0.visits = 4 }
    var iterator = delivered.stream.makeAsyncIterator()
    #expect(await iterator.next() == 40)
    forward.cancel()
    watch.cancel()
  }
}
