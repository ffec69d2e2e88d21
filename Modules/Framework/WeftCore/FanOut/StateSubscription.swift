import CWeftPrefetch
import Synchronization

/// A live observation: keep it to keep receiving changes; cancel it, or let it go, to stop.
///
/// ```swift
/// let subscription = client.observeOnMainActor(\.count) { change in label = "\(change.value)" }
/// subscription.cancel()   // or drop the last reference
/// ```
///
/// > Important: Once `cancel()` returns, no commit that starts afterwards calls the
/// > subscriber, and a subscriber cancelled on its own delivery isolation (for example a
/// > MainActor view cancelling on the MainActor) is never called again, even by a delivery
/// > already under way.
///
/// - Complexity: `cancel()` is O(1) amortized (a swap-remove under the client's lock).
/// - Note: Isolation: thread-safe; cancel from any isolation.
/// - Note: Allocations: one token and one registration per subscription (≈ 115 bytes with the
///   list slot on 64-bit Linux, not counting the captured closure).
public final class StateSubscription: Sendable, Hashable {
  let registration: RegistrationBase

  init(_ registration: RegistrationBase) { self.registration = registration }

  deinit { registration.release() }

  /// Stops delivery. Idempotent.
  public func cancel() { registration.cancel() }

  /// Whether `cancel()` was called (or the token released).
  public var isCancelled: Bool { !registration.isActive }

  /// Keeps this subscription in `set` (like Combine's `AnyCancellable.store(in:)`).
  public func store(in set: inout Set<StateSubscription>) { set.insert(self) }

  public static func == (lhs: StateSubscription, rhs: StateSubscription) -> Bool { lhs === rhs }

  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// The part of a subscription the fan-out engine holds: the active flag, the slot in its
/// group's list, and the group. Open only because `MainActorObserver` is: it has no public
/// API and no public initializer, so nothing outside WeftCore can subclass it directly.
///
/// `@unchecked Sendable`: `active` and `attached` are atomic; `slot` is read and written
/// only while holding the owning `StateCell`'s lock (see `SubscriberList`), so no two
/// threads touch it at once; `group` is set before the registration is published — at init,
/// or for an observer under the cell's lock before its `StateSubscription` is made — and never
/// changes after.
open class RegistrationBase: @unchecked Sendable {
  @usableFromInline let active = Atomic<Bool>(true)
  /// Set by the one attach an observer may have (closure registrations start attached).
  /// Sits in the padding after `active`: it costs no bytes.
  let attached: Atomic<Bool>
  /// Index in the owning `SubscriberList`; guarded by the cell's lock.
  final var slot = 0
  final var group: GroupBase?

  init(group: GroupBase) {
    self.group = group
    self.attached = Atomic(true)
  }

  /// An observer's registration, attached later (`MainActorObserver`).
  init() {
    self.group = nil
    self.attached = Atomic(false)
  }

  /// Whether the subscription still wants deliveries (one relaxed atomic load).
  @inlinable final var isActive: Bool { active.load(ordering: .relaxed) }

  /// Marks the registration cancelled and, the first time only, removes it from its group.
  final func cancel() {
    guard active.exchange(false, ordering: .acquiringAndReleasing) else { return }
    group?.remove(self)
  }

  /// `cancel()` because the `StateSubscription` was released. In debug builds, a MainActor
  /// subscriber released while its group has a delivery pending is reported through
  /// `WeftDiagnostics`: the commit it was alive for will not reach it (the usual cause: a
  /// token dropped at the end of a nonisolated function before the MainActor ran).
  final func release() {
    guard active.exchange(false, ordering: .acquiringAndReleasing) else { return }
    guard let group else { return }
    let pending = group.remove(self)
    #if DEBUG
    if pending, deliversOnMainActor { WeftDiagnostics.releasedWithDeliveryPending(group) }
    #endif
  }

  /// Whether this registration is delivered by the MainActor job.
  var deliversOnMainActor: Bool { false }
}

// Each registration kind keeps its callback as the only field after the base, so its offset
// does not depend on `Value`: unspecialized delivery loops read it without looking up generic
// metadata. Callbacks are stored as the caller passed them: `observe…` functions are
// deliberately not `@inlinable`, so a closure literal is emitted directly in the generic
// calling convention and is stored without a reabstraction thunk (no extra allocation, no
// extra call per delivery).

// `@unchecked Sendable`: adds one immutable `@Sendable` callback to `RegistrationBase`, whose
// own mutable state is guarded as its comment says.
/// A synchronous subscriber.
@usableFromInline
final class SyncRegistration<Value>: RegistrationBase, @unchecked Sendable {
  @usableFromInline let callback: @Sendable (Change<Value>) -> Void

  init(_ callback: @escaping @Sendable (Change<Value>) -> Void, group: GroupBase) {
    self.callback = callback
    super.init(group: group)
  }
}

// `@unchecked Sendable`: adds one immutable `@Sendable` callback to `RegistrationBase`, whose
// own mutable state is guarded as its comment says.
/// A MainActor subscriber.
@usableFromInline
final class MainRegistration<Value>: RegistrationBase, @unchecked Sendable {
  @usableFromInline let callback: @MainActor @Sendable (Change<Value>) -> Void

  override var deliversOnMainActor: Bool { true }

  init(_ callback: @escaping @MainActor @Sendable (Change<Value>) -> Void, group: GroupBase) {
    self.callback = callback
    super.init(group: group)
  }
}

// `@unchecked Sendable`: adds one immutable `@Sendable` callback to `RegistrationBase`, whose
// own mutable state is guarded as its comment says.
/// A subscriber delivered on some actor.
final class ActorRegistration<Value>: RegistrationBase, @unchecked Sendable {
  let callback: @Sendable (isolated any Actor, Change<Value>) -> Void

  init(
    _ callback: @escaping @Sendable (isolated any Actor, Change<Value>) -> Void,
    group: GroupBase
  ) {
    self.callback = callback
    super.init(group: group)
  }
}

// `@unchecked Sendable`: adds one immutable `@Sendable` callback to `RegistrationBase`, whose
// own mutable state is guarded as its comment says.
/// A `changes` stream's subscriber.
final class SnapshotRegistration<State: Sendable>: RegistrationBase, @unchecked Sendable {
  let callback: @Sendable (Snapshot<State>) -> Void

  init(_ callback: @escaping @Sendable (Snapshot<State>) -> Void, group: GroupBase) {
    self.callback = callback
    super.init(group: group)
  }
}

/// The subscribers of one group for one delivery target, in a dense array.
///
/// Not generic, so that unspecialized code walks it without generic-metadata lookups.
/// Not thread-safe by itself: every access happens under the owning cell's lock.
struct SubscriberList {
  private(set) var registrations: ContiguousArray<RegistrationBase> = []

  var isEmpty: Bool { registrations.isEmpty }
  var count: Int { registrations.count }

  mutating func append(_ registration: RegistrationBase) {
    registration.slot = registrations.count
    registrations.append(registration)
  }

  /// Removes `registration` in O(1) by moving the last one into its slot.
  /// Returns false if it was not in this list.
  @discardableResult
  mutating func remove(_ registration: RegistrationBase) -> Bool {
    guard contains(registration) else { return false }
    let slot = registration.slot
    let last = registrations.removeLast()
    if slot < registrations.count {
      registrations[slot] = last
      last.slot = slot
    }
    return true
  }

  mutating func removeAll() { registrations.removeAll() }

  func contains(_ registration: RegistrationBase) -> Bool {
    let slot = registration.slot
    return slot < registrations.count && registrations[slot] === registration
  }
}

/// Lists at least this long are walked with prefetching: shorter ones are usually in cache,
/// where the prefetch instructions only add work. A computed constant, not a global `let`:
/// inlined walks in other modules then fold it instead of calling its lazy initializer.
@inlinable var prefetchMinimumCount: Int { 4_096 }
/// How many registrations ahead of the one being called the walk asks the CPU to load: at
/// 1M subscribers a delivery takes ≈ 10 ns and a load from memory ≈ 100–300 ns here.
@inlinable var prefetchDistance: Int { 64 }

extension ContiguousArray where Element == RegistrationBase {
  /// Calls `invoke` with each registration that is still active, as `Kind`, without
  /// retaining or releasing it: the array, alive for the whole walk, owns every element.
  @inlinable
  func forEachActive<Kind: RegistrationBase>(
    as kind: Kind.Type, _ invoke: (Kind) -> Void
  ) -> UInt64 {
    withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return 0 }
      let references = UnsafeRawPointer(base).assumingMemoryBound(
        to: Unmanaged<RegistrationBase>.self)
      var delivered: UInt64 = 0
      let count = buffer.count
      @inline(__always) func visit(_ index: Int) {
        references[index]._withUnsafeGuaranteedRef { registration in
          guard registration.isActive else { return }
          invoke(unsafeDowncast(registration, to: Kind.self))
          delivered &+= 1
        }
      }
      if count < prefetchMinimumCount {
        for index in 0..<count { visit(index) }
      } else {
        let prefetching = count - prefetchDistance
        for index in 0..<count {
          if index < prefetching {
            weft_prefetch(references[index &+ prefetchDistance].toOpaque())
          }
          visit(index)
        }
      }
      return delivered
    }
  }
}

extension ContiguousArray where Element: AnyObject {
  /// Calls `body` with each element, unretained: the array, alive for the whole walk, owns
  /// every element. The caller keeps the array alive as long as it uses what it was given.
  @inlinable
  func forEachUnretained(_ body: (Unmanaged<Element>) -> Void) {
    withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      let references = UnsafeRawPointer(base).assumingMemoryBound(to: Unmanaged<Element>.self)
      for index in 0..<buffer.count { body(references[index]) }
    }
  }
}
