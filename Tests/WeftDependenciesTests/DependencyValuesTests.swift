import Foundation
import Testing
import WeftCore
import WeftDependencies

/// A client an app declares: a live implementation and an unimplemented test one.
struct FactClient: Sendable {
  var fetch: @Sendable (Int) async throws -> String
}

enum FactClientKey: DependencyKey {
  static let liveValue = FactClient { "live fact about \($0)" }
  static let testValue = FactClient(fetch: unimplemented("FactClient.fetch"))
}

extension DependencyValues {
  var factClient: FactClient {
    get { self[FactClientKey.self] }
    set { self[FactClientKey.self] = newValue }
  }
}

@Suite("DependencyValues: scopes, defaults, built-ins")
struct DependencyValuesTests {
  @Test func outsideAnyScopeTheLiveValuesAnswer() async throws {
    #expect(DependencyValues.current.context == .live)
    #expect(try await DependencyValues.current.factClient.fetch(3) == "live fact about 3")
    let uuid = DependencyValues.current.uuid
    #expect(uuid() != uuid())
  }

  @Test func anOverrideHoldsForItsOperationAndTheTasksItStartsOnly() async {
    let pinned = UUID(counting: 42)
    let (inside, inTask, inDetached) = await withDependencies {
      $0.uuid = .constant(pinned)
    } operation: {
      @Dependency(\.uuid) var uuid
      let inTask = await Task { DependencyValues.current.uuid() }.value
      let inDetached = await Task.detached { DependencyValues.current.uuid() }.value
      return (uuid(), inTask, inDetached)
    }
    #expect(inside == pinned)
    #expect(inTask == pinned)
    #expect(inDetached != pinned)  // a detached task leaves the scope
    #expect(DependencyValues.current.uuid() != pinned)
  }

  @Test func anInnerOverrideWinsAndTheOuterComesBack() {
    let outer = Date(timeIntervalSince1970: 100)
    let inner = Date(timeIntervalSince1970: 200)
    withDependencies {
      $0.date = .constant(outer)
    } operation: {
      #expect(DependencyValues.current.date.now == outer)
      withDependencies {
        $0.date = .constant(inner)
      } operation: {
        #expect(DependencyValues.current.date() == inner)
      }
      #expect(DependencyValues.current.date.now == outer)
    }
  }

  @Test func theTestContextAnswersTestValuesWithDefaultsMadeOncePerScope() {
    withDependencies(DependencyValues(context: .test)) {
      let uuid = DependencyValues.current.uuid
      #expect(uuid() == UUID(counting: 0))
      // Read again: the same generator (made once in this scope), so it counts on.
      #expect(DependencyValues.current.uuid() == UUID(counting: 1))
      // An override derived from this scope shares its defaults.
      withDependencies {
        $0.date = .constant(.distantPast)
      } operation: {
        #expect(DependencyValues.current.uuid() == UUID(counting: 2))
      }
    }
    // Another test scope starts its own counter.
    withDependencies(DependencyValues(context: .test)) {
      #expect(DependencyValues.current.uuid() == UUID(counting: 0))
    }
  }

  @Test func countingUUIDsAreWrittenAsTCAsAre() {
    #expect(UUID(counting: 0).uuidString == "00000000-0000-0000-0000-000000000000")
    #expect(UUID(counting: 1).uuidString == "00000000-0000-0000-0000-000000000001")
    #expect(UUID(counting: 0x1_0000).uuidString == "00000000-0000-0000-0000-000000010000")
  }

  @Test func aRandomSourceIsOneSequenceSharedByItsCopies() {
    var a = SplitMixForTest(state: 1)
    let expected = (0..<4).map { _ in a.next() }
    let source = RandomSource(SplitMixForTest(state: 1))
    let first = source
    let second = source
    let drawn = [first.next(), second.next(), first.next(), second.next()]
    #expect(drawn == expected)
    let roll = withDependencies {
      $0.random = RandomSource(SplitMixForTest(state: 9))
    } operation: {
      @Dependency(\.random) var random
      var generator = random
      return Int.random(in: 1...6, using: &generator)
    }
    #expect((1...6).contains(roll))
  }

  @Test func concurrentScopesEachSeeTheirOwnOverride() async {
    let results = await withTaskGroup(of: (Int, UUID).self) { group in
      for index in 0..<200 {
        group.addTask {
          await withDependencies {
            $0.uuid = .constant(UUID(counting: UInt64(index)))
          } operation: {
            await Task.yield()
            return (index, DependencyValues.current.uuid())
          }
        }
      }
      return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
    }
    #expect(results.count == 200)
    #expect(results.allSatisfy { $0.value == UUID(counting: UInt64($0.key)) })
  }

  @Test func oneIncrementingGeneratorDrawnConcurrentlyGivesEveryNumberOnce() async {
    let ids = await withDependencies(DependencyValues(context: .test)) {
      await withTaskGroup(of: [UUID].self) { group in
        for _ in 0..<8 {
          group.addTask { (0..<250).map { _ in DependencyValues.current.uuid() } }
        }
        return await group.reduce(into: []) { $0 += $1 }
      }
    }
    #expect(Set(ids) == Set((0..<2000).map { UUID(counting: UInt64($0)) }))
  }
}

/// A tiny deterministic generator for these tests (SplitMix64).
struct SplitMixForTest: RandomNumberGenerator, Sendable {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
