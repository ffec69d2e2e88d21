/// A MainActor subscriber that is its own registration: subclass it, override
/// `receive(_:)`, and attach it with `observeOnMainActor(_:observer:)`.
///
/// ```swift
/// // @unchecked Sendable restates the superclass's: its state is all @MainActor.
/// final class Label: MainActorObserver<Int>, @unchecked Sendable {
///   @MainActor var text = ""
///   @MainActor override func receive(_ change: Change<Int>) { text = "\(change.value)" }
/// }
/// let label = Label()
/// let subscription = cell.observeOnMainActor(\.count, observer: label)
/// ```
///
/// A closure subscriber is two heap blocks the delivery walks — WeftCore's registration and
/// the closure's context (the view it updates) — and the registration points to the
/// context, so at hundreds of thousands of subscribers each delivery waits for two misses
/// to memory, one after the other. An observer is one block: the delivery reads it and
/// calls `receive` on it, and the walk's prefetch covers all of it
/// (`weft-bench memory-floor`). Use it for very many subscribers, such as a list's rows;
/// for a few, a closure reads better.
///
/// An observer attaches once (a second attach traps: make a new observer). The
/// subscription it returns works like any other: cancel it, or release it, to stop. Until
/// then the cell holds the observer.
///
/// - Complexity: O(1) to make; a delivery is one method call.
/// - Note: Isolation: `receive` runs on the MainActor, one job per burst of commits. Keep a
///   subclass's mutable state `@MainActor`: the class itself cannot be isolated (its
///   superclass is WeftCore's registration, which any thread may cancel), so the compiler
///   checks the state only where it is marked. Swift asks a subclass to restate the
///   registration's `@unchecked Sendable`; with every stored property `@MainActor` or an
///   immutable `Sendable`, that is true.
/// - Note: Allocations: the observer; attaching adds its `StateSubscription` (32 bytes) and a list
///   slot.
// `@unchecked Sendable`: this class adds no stored state to `RegistrationBase`, whose comment
// says how each of its fields is guarded, and its one method is `@MainActor`. The conformance
// cannot be checked because the superclass is not actor-isolated (any thread may cancel a
// registration); a subclass that keeps its stored properties `@MainActor` or immutable and
// `Sendable` stays safe, and the compiler checks every access to those.
open class MainActorObserver<Value: Sendable>: RegistrationBase, @unchecked Sendable {
  override final var deliversOnMainActor: Bool { true }

  /// Makes an observer, not yet attached.
  public override init() { super.init() }

  /// Called on the MainActor with each change of the selected value (coalesced per burst).
  /// The default does nothing.
  ///
  /// - Complexity: what the override does.
  @MainActor open func receive(_ change: Change<Value>) {}
}
