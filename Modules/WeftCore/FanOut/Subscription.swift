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
/// - Note: Allocations: one token and one registration per subscription (104 bytes together
///   on 64-bit Linux, not counting the captured closure).
public final class Subscription: Sendable, Hashable {
  let registration: RegistrationBase

  init(_ registration: RegistrationBase) { self.registration = registration }

  deinit { registration.cancel() }

  /// Stops delivery. Idempotent.
  public func cancel() { registration.cancel() }

  /// Whether `cancel()` was called (or the token released).
  public var isCancelled: Bool { !registration.isActive }

  /// Keeps this subscription in `set` (like Combine's `AnyCancellable.store(in:)`).
  public func store(in set: inout Set<Subscription>) { set.insert(self) }

  public static func == (lhs: Subscription, rhs: Subscription) -> Bool { lhs === rhs }

  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// The part of a subscription the fan-out engine holds: the active flag and the slot in its
/// group's list.
///
/// `@unchecked Sendable`: `active` is atomic; `slot` is read and written only while holding
/// the owning `StateCell`'s lock (see `SubscriberList`), so no two threads touch it at once.
class RegistrationBase: @unchecked Sendable {
  private let active = Atomic<Bool>(true)
  /// Index in the owning `SubscriberList`; guarded by the cell's lock.
  var slot = 0

  /// Whether the subscription still wants deliveries (one relaxed atomic load).
  @inline(__always) final var isActive: Bool { active.load(ordering: .relaxed) }

  /// Marks the registration cancelled and, the first time only, removes it from its group.
  final func cancel() {
    guard active.exchange(false, ordering: .acquiringAndReleasing) else { return }
    detach()
  }

  /// Removes the registration from its group; overridden by `Registration`.
  func detach() {}
}

/// A subscriber's callback and the group it belongs to.
final class Registration<Callback>: RegistrationBase, @unchecked Sendable {
  let callback: Callback
  let group: GroupBase

  init(callback: Callback, group: GroupBase) {
    self.callback = callback
    self.group = group
  }

  override func detach() { group.remove(self) }
}

/// The subscribers of one group for one delivery target, in a dense array for fast walks.
///
/// Not thread-safe by itself: every access happens under the owning cell's lock.
struct SubscriberList<Callback> {
  private(set) var registrations: ContiguousArray<Registration<Callback>> = []

  var isEmpty: Bool { registrations.isEmpty }
  var count: Int { registrations.count }

  mutating func append(_ registration: Registration<Callback>) {
    registration.slot = registrations.count
    registrations.append(registration)
  }

  /// Removes `registration` in O(1) by moving the last one into its slot.
  /// Returns false if it was not in this list.
  @discardableResult
  mutating func remove(_ registration: RegistrationBase) -> Bool {
    let slot = registration.slot
    guard slot < registrations.count, registrations[slot] === registration else { return false }
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
