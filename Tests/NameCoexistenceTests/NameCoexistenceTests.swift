import Dispatch
import Foundation
import Observation
import Testing
import WeftContexts
import WeftCore
import WeftFeedback
import WeftNetworking
import WeftObservation
import WeftPersistence
import WeftRuntime
import WeftSimulation

/// Weft's names coexist with the toolchain's: a file importing Foundation, Dispatch,
/// Observation and every Weft module compiles with the common names unqualified. (It did not
/// while WeftFeedback had a type named `Dispatch`: `Dispatch.DispatchQueue` then named the
/// type, not the module.)
@Suite("Names that coexist")
struct NameCoexistenceTests {
  @Test func toolchainNamesResolveNextToEveryWeftModule() async {
    let queue = Dispatch.DispatchQueue(label: "weft.names")
    let plain = DispatchQueue(label: "weft.names.plain")
    #expect(queue.label == "weft.names")
    #expect(plain.label == "weft.names.plain")
    let group = DispatchGroup()
    group.enter()
    queue.async { group.leave() }
    group.wait()
    #expect(Foundation.URL(string: "https://example.com")?.host == "example.com")
    #expect(DispatchTime.now() > DispatchTime(uptimeNanoseconds: 0))
  }

  /// The renamed types, unqualified next to Foundation, Dispatch and Observation: the names
  /// that collided with SwiftUI (`Binding`, `Window`, `Transaction`), Foundation (`Selector`),
  /// Combine (`Subscription`) and TCA (`Store`) are `ContextBinding`, `ContextWindow`,
  /// `DatabaseTransaction`, `StateSelector`, `StateSubscription` and `FeedbackStore`.
  @MainActor @Test func theRenamedTypesAreUnambiguous() {
    let cell = StateCell(0)
    let selector = StateSelector<Int, Int>(id: "identity") { $0 }
    let subscription: StateSubscription = cell.observeSynchronously(selector) { _ in }
    subscription.cancel()
    var text = "a"
    let binding = ContextBinding(get: { text }, set: { text = $0 })
    binding.set("b")
    #expect(text == "b")
    let store: FeedbackStore<Int, Int, Int, Never>? = nil
    #expect(store == nil)
    let transactionType: DatabaseTransaction.Type = DatabaseTransaction.self
    let windowType: ContextWindow.Type = ContextWindow.self
    #expect("\(transactionType)" == "DatabaseTransaction")
    #expect("\(windowType)" == "ContextWindow")
  }
}
