import Foundation
import Testing
import WeftCore
import WeftDependencies
import WeftFeedback
import WeftTesting

/// A todo list whose reducer is pure: ids come from the `uuid` dependency, read by the
/// effect that answers an add, never by the reducer.
private enum Todos {
  struct State: Equatable, Sendable {
    var ids: [UUID] = []
    var fact: String?
    var waited = false
  }

  enum Event: Equatable, Sendable {
    case addTapped
    case added(UUID)
    case factTapped(Int)
    case factLoaded(String)
    case waitTapped
    case waited
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .added(let id): state.ids.append(id)
    case .factLoaded(let fact): state.fact = fact
    case .waited: state.waited = true
    case .addTapped, .factTapped, .waitTapped: break
    }
  }

  static let feedbacks: [Feedback<State, Event>] = [
    .extracting(payload: { if case .addTapped = $0 { () } else { nil } }) { _ in
      @Dependency(\.uuid) var uuid
      return .added(uuid())
    }.named("add"),
    .extracting(payload: { if case .factTapped(let number) = $0 { number } else { nil } }) {
      number in
      @Dependency(\.factClient) var facts
      return .factLoaded((try? await facts.fetch(number)) ?? "no fact")
    }.named("fact"),
    .extracting(payload: { if case .waitTapped = $0 { () } else { nil } }) { _ in
      @Dependency(\.continuousClock) var clock
      do { try await clock.sleep(for: .seconds(1)) } catch { return nil }
      return .waited
    }.named("wait"),
  ]
}

@Suite("Dependencies in feedback systems and test stores", .timeLimit(.minutes(1)))
@MainActor
struct FeedbackDependenciesTests {
  @Test func aTestStoreOverridesForItsOwnEffectsAndCountsUUIDsFromZero() async {
    let store = TestStore(
      initial: Todos.State(), reduce: Todos.reduce, feedbacks: Todos.feedbacks,
      dependencies: { $0.factClient.fetch = { "\($0) is odd" } })
    store.send(.addTapped)
    await store.receive(.added(UUID(counting: 0))) { $0.ids = [UUID(counting: 0)] }
    store.send(.addTapped)
    await store.receive(.added(UUID(counting: 1))) { $0.ids.append(UUID(counting: 1)) }
    store.send(.factTapped(3))
    await store.receive(.factLoaded("3 is odd")) { $0.fact = "3 is odd" }
    await store.finish()
  }

  @Test func twoStoresInOneTestEachHaveTheirOwnOverrides() async {
    let first = TestStore(
      initial: Todos.State(), reduce: Todos.reduce, feedbacks: Todos.feedbacks,
      dependencies: { $0.uuid = .constant(UUID(counting: 7)) })
    let second = TestStore(
      initial: Todos.State(), reduce: Todos.reduce, feedbacks: Todos.feedbacks,
      dependencies: { $0.uuid = .constant(UUID(counting: 9)) })
    first.send(.addTapped)
    second.send(.addTapped)
    await first.receive(.added(UUID(counting: 7))) { $0.ids = [UUID(counting: 7)] }
    await second.receive(.added(UUID(counting: 9))) { $0.ids = [UUID(counting: 9)] }
    await first.finish()
    await second.finish()
  }

  @Test func aTestStoreGivenATestClockMakesItTheContinuousClock() async {
    let clock = TestClock()
    let store = TestStore(
      initial: Todos.State(), reduce: Todos.reduce, feedbacks: Todos.feedbacks, clock: clock)
    store.send(.waitTapped)
    await clock.advance(by: .seconds(1))
    await store.receive(.waited) { $0.waited = true }
    await store.finish()
  }

  @Test(.dependencies { $0.uuid = .constant(UUID(counting: 5)) })
  func aTestTraitOverridesForTheWholeTestAndItsStores() async {
    #expect(DependencyValues.current.context == .test)
    #expect(DependencyValues.current.uuid() == UUID(counting: 5))
    let store = TestStore(initial: Todos.State(), reduce: Todos.reduce, feedbacks: Todos.feedbacks)
    store.send(.addTapped)
    await store.receive(.added(UUID(counting: 5))) { $0.ids = [UUID(counting: 5)] }
    await store.finish()
  }

  @Test(.dependencies())
  func theTraitGivesEachTestFreshTestValues() {
    #expect(DependencyValues.current.uuid() == UUID(counting: 0))
    #expect(DependencyValues.current.uuid() == UUID(counting: 1))
  }

  @Test func aFeedbackSystemKeepsItsScopeWhoeverSendsTheEvents() async {
    let system = withDependencies {
      $0.uuid = .constant(UUID(counting: 1))
    } operation: {
      FeedbackSystem(
        initial: Todos.State(), reduce: Todos.reduce, feedbacks: Todos.feedbacks,
        on: MainActor.shared, dependencies: { $0.factClient.fetch = { "fact \($0)" } })
    }
    let other = FeedbackSystem(
      initial: Todos.State(), reduce: Todos.reduce, feedbacks: Todos.feedbacks,
      on: MainActor.shared, dependencies: { $0.uuid = .constant(UUID(counting: 2)) })
    // Sent from a scope with a third value: each system's effects still read their own.
    withDependencies {
      $0.uuid = .constant(UUID(counting: 3))
    } operation: {
      system.send(.addTapped)
      system.send(.factTapped(4))
      other.send(.addTapped)
    }
    await system.waitUntilIdle()
    await other.waitUntilIdle()
    #expect(system.state.ids == [UUID(counting: 1)])
    #expect(system.state.fact == "fact 4")
    #expect(other.state.ids == [UUID(counting: 2)])
    #expect(system.dependencies.overrideCount == 2)
  }

  @Test func anUnimplementedEndpointFailsTheStoreNamingTheEndpoint() async {
    let failures = Locked<[TestFailure]>([])
    let store = TestStore(
      initial: Todos.State(), reduce: Todos.reduce, feedbacks: Todos.feedbacks,
      failure: { failure in failures.withLock { $0.append(failure) } })
    store.send(.factTapped(1))
    await store.receive(.factLoaded("no fact")) { $0.fact = "no fact" }
    await store.finish()
    let recorded = failures.withLock { $0 }
    #expect(recorded.count == 1)
    #expect(
      recorded.first?.message
        == "Unimplemented: 'FactClient.fetch' was called, and this test did not override it. "
        + "Give it a test value for this test (the .dependencies trait, withDependencies), "
        + "this TestStore (TestStore(…, dependencies: { $0… = … })) or this feedback system.")
    // It points at the line that declared the endpoint.
    #expect(recorded.first?.location.fileID.hasSuffix("DependencyValuesTests.swift") == true)
  }

  @Test func anUnimplementedEndpointIsATestIssueNamingIt() async {
    let store = TestStore(initial: Todos.State(), reduce: Todos.reduce, feedbacks: Todos.feedbacks)
    await withKnownIssue {
      store.send(.factTapped(1))
      await store.receive(.factLoaded("no fact")) { $0.fact = "no fact" }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("'FactClient.fetch' was called") }
    }
    await store.finish()
  }

  @Test func anUnimplementedClockIsATestIssueNamingIt() async {
    let store = TestStore(initial: Todos.State(), reduce: Todos.reduce, feedbacks: Todos.feedbacks)
    await withKnownIssue {
      store.send(.waitTapped)
      await store.system.waitUntilIdle()
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains("'DependencyValues.continuousClock' was called")
      }
    }
    await store.finish()
  }

  @Test(.dependencies())
  func unimplementedBuiltInsAreTestIssuesNamingThem() {
    withKnownIssue {
      _ = DependencyValues.current.date.now
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("'DependencyValues.date' was called") }
    }
    withKnownIssue {
      _ = DependencyValues.current.random.next()
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("'DependencyValues.random' was called") }
    }
  }
}
