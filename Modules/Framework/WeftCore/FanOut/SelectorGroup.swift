import Synchronization

/// Removes registrations under the owning cell's lock; implemented by `StateCell`.
protocol RegistrationRemoving: AnyObject, Sendable {
  /// Removes `registration`; returns whether its group had a MainActor delivery pending at
  /// that moment (a commit the registration would still have received).
  @discardableResult
  func remove(_ registration: RegistrationBase, from group: GroupBase) -> Bool
  /// The owner's name, for diagnostics.
  var name: String { get }
}

/// The subscribers that share one selector, and the one comparison they share per commit.
///
/// Methods named `…Locked` run while the owning cell's lock is held; the others run outside
/// it, on the isolation the comment names.
///
/// `@unchecked Sendable`: the subscriber lists, `slot`, the `pending…` flags and the batches
/// are touched only while holding the owning cell's lock, or by the one party that took a
/// batch under it; `lastValue` and `syncBatch` only by the cell's commits, which the owner
/// serializes (one isolation domain, checked by the commit's version test); `lastMain`
/// only on the MainActor; `subscriberCount` is atomic.
@usableFromInline
class GroupBase: @unchecked Sendable {
  weak var owner: (any RegistrationRemoving)?
  /// The key the cell indexes this group under; set once, under the lock, at creation.
  var key: GroupKey?
  /// Position in the cell's group array; guarded by the cell's lock.
  var slot = 0
  /// Number of live subscribers over all targets (atomic so counters can read it lock-free).
  @usableFromInline let subscriberCount = Atomic<Int>(0)
  /// Whether the group is in its cell's `main` batch (`PendingBatch`): the batch's membership
  /// bit, so that a group changed twice in a burst is appended once without searching the
  /// batch. Guarded by the cell's lock.
  var pendingMain = false
  /// Set when a MainActor subscriber joins, so the next job delivers even an unchanged value:
  /// a subscriber that joined mid-burst must not miss the burst's last value.
  var mainNeedsDelivery = false

  /// Removes `registration`; returns whether a MainActor delivery was pending for the group.
  @discardableResult
  func remove(_ registration: RegistrationBase) -> Bool {
    owner?.remove(registration, from: self) ?? false
  }

  /// Removes `registration` from whichever list holds it. Returns whether the group is now
  /// empty.
  func removeLocked(_ registration: RegistrationBase) -> Bool { true }

  /// Drops every subscriber; called when the cell goes away.
  func removeAllLocked() {}

  /// The selector's readable id, for reports.
  var selectorDescription: String { "" }
}

/// A group of the cell's `State`: how the engine drives it without knowing `Value`.
///
/// `@unchecked Sendable`: it adds no stored state to `GroupBase`, whose comment says how
/// every field is guarded.
@usableFromInline
class AnyGroup<State: Sendable>: GroupBase, @unchecked Sendable {
  /// Projects `state`, compares with the last committed value and keeps the new one.
  /// Returns whether subscribers must hear of it. On the committing isolation, unlocked.
  @usableFromInline
  func evaluate(_ state: State) -> Bool { false }

  /// Copies the synchronous subscribers into the sync batch. Returns whether the group also
  /// has MainActor or actor subscribers (then `prepareCoalescedLocked()` must follow).
  /// Locked.
  @usableFromInline
  func prepareLocked() -> Bool { false }

  /// Marks the group pending for the MainActor job. Returns whether it was not already
  /// (then the cell queues it). Locked.
  @usableFromInline
  func prepareMainLocked() -> Bool { false }

  /// Marks the group pending on each observing actor it is not yet pending on, and returns
  /// those actors; `nil` when no actor observes the group. Locked.
  @usableFromInline
  func prepareActorsLocked() -> [ObjectIdentifier: any Actor]? { nil }

  /// Calls the synchronous batch. On the committing isolation, unlocked.
  @usableFromInline
  func deliverSyncBatch(version: UInt64, stats: inout DeliveryStats) {}

  /// Takes the MainActor batch for the job that is about to run. Locked.
  @usableFromInline
  func takeMainBatchLocked() {}

  /// Delivers the latest value to the MainActor batch. On the MainActor, unlocked.
  @usableFromInline
  @MainActor func deliverMainBatch(_ snapshot: Snapshot<State>, stats: inout DeliveryStats) {}

  /// Takes the batch for the subscribers on the actor `key`. Locked.
  func takeActorBatchLocked(_ key: ObjectIdentifier) -> ActorBatch? { nil }

  /// Delivers the latest value to an actor batch. On that actor, unlocked.
  func deliver(
    _ batch: ActorBatch, snapshot: Snapshot<State>, on actor: isolated any Actor,
    stats: inout DeliveryStats
  ) -> (any Sendable)? { nil }

  /// Records the value last delivered to the actor `key`. Locked.
  func finishActorBatchLocked(_ key: ObjectIdentifier, delivered: (any Sendable)?) {}
}

/// How a cell finds the group for a selector: equal keys share one group.
struct GroupKey: Hashable, Sendable {
  let id: SelectorID
  let removesDuplicates: Bool
  let value: ObjectIdentifier
}

/// The subscribers on one actor, taken for one job.
struct ActorBatch: Sendable {
  let registrations: ContiguousArray<RegistrationBase>
  let lastValue: (any Sendable)?
  let force: Bool
}

/// The subscribers of one group that are delivered on one actor.
struct ActorTargetList {
  let actor: any Actor
  var list = SubscriberList()
  var pending = false
  var needsDelivery = true

  init(actor: any Actor) { self.actor = actor }
}

/// Counters gathered while delivering.
@usableFromInline
struct DeliveryStats {
  @usableFromInline var deliveries: UInt64 = 0
  @usableFromInline var skipped: UInt64 = 0

  @inlinable init() {}
}

/// Subscribers of one `StateSelector<State, Value>`.
///
/// `@unchecked Sendable` for the reasons on `GroupBase`: the subscriber lists and batches are
/// touched under the cell's lock or by the one party that took the batch; the value at `last`
/// only by the owner's serialized commits; `lastMain` only on the MainActor;
/// `actorValues` under the lock.
final class SelectorGroup<State: Sendable, Value: Equatable & Sendable>: AnyGroup<State>,
  @unchecked Sendable
{
  let selector: StateSelector<State, Value>
  /// The value at the last commit this group processed. Heap-allocated so the selector's
  /// specialized `refresh` updates it in place (no value witnesses, no exclusivity checks);
  /// touched only by the owner's serialized commits.
  private let last: UnsafeMutablePointer<Value>
  var lastValue: Value { last.pointee }
  // `@exclusivity(unchecked)`: the lists are read and changed only under the cell's lock, so
  // no two accesses overlap; the run-time check cost three `swift_beginAccess` calls a commit.
  @exclusivity(unchecked) var sync = SubscriberList()
  @exclusivity(unchecked) var main = SubscriberList()
  /// MainActor subscribers that are their own registrations (`MainActorObserver`), apart
  /// from the closures so each walk calls one kind.
  @exclusivity(unchecked) var observers = SubscriberList()
  @exclusivity(unchecked) var actors: [ObjectIdentifier: ActorTargetList] = [:]
  /// The value last delivered on each actor; guarded by the cell's lock.
  private var actorValues: [ObjectIdentifier: Value] = [:]

  // `@exclusivity(unchecked)`: each batch field is touched either under the cell's lock or by
  // the one party that took the batch under it (the owner's commit, the MainActor job), never
  // by two accesses at once; the run-time check cost two `swift_beginAccess` calls a commit.
  @exclusivity(unchecked) private var syncBatch: ContiguousArray<RegistrationBase> = []
  @exclusivity(unchecked) private var mainBatch: ContiguousArray<RegistrationBase> = []
  @exclusivity(unchecked) private var observerBatch: ContiguousArray<RegistrationBase> = []
  @exclusivity(unchecked) private var mainBatchForced = false
  /// The value last delivered to the MainActor subscribers (`nil` before the first delivery).
  /// Heap-allocated, like `last`, so the selector's specialized `deliverMain` reads and
  /// updates it in place; touched only on the MainActor.
  private let lastMain: UnsafeMutablePointer<Value?>

  init(selector: StateSelector<State, Value>, initial: Value) {
    self.selector = selector
    self.last = .allocate(capacity: 1)
    self.last.initialize(to: initial)
    self.lastMain = .allocate(capacity: 1)
    self.lastMain.initialize(to: nil)
  }

  deinit {
    last.deinitialize(count: 1)
    last.deallocate()
    lastMain.deinitialize(count: 1)
    lastMain.deallocate()
  }

  override var selectorDescription: String { selector.id.description }

  @usableFromInline
  override func evaluate(_ state: State) -> Bool {
    selector.refresh(state, last, selector.removesDuplicates)
  }

  @usableFromInline
  override func prepareLocked() -> Bool {
    if !sync.isEmpty { syncBatch = sync.registrations }
    return !main.isEmpty || !observers.isEmpty || !actors.isEmpty
  }

  @usableFromInline
  override func prepareMainLocked() -> Bool {
    guard !(main.isEmpty && observers.isEmpty) && !pendingMain else { return false }
    pendingMain = true
    return true
  }

  @usableFromInline
  override func prepareActorsLocked() -> [ObjectIdentifier: any Actor]? {
    guard !actors.isEmpty else { return nil }
    var targets: [ObjectIdentifier: any Actor] = [:]
    for (key, target) in actors where !target.pending {
      actors[key]!.pending = true
      targets[key] = target.actor
    }
    return targets
  }

  @usableFromInline
  override func deliverSyncBatch(version: UInt64, stats: inout DeliveryStats) {
    guard !syncBatch.isEmpty else { return }
    // Moved out, not copied: one release when the walk is done, no retain.
    var batch = ContiguousArray<RegistrationBase>()
    swap(&batch, &syncBatch)
    stats.deliveries &+= selector.deliverSync(last, version, batch)
  }

  @usableFromInline
  override func takeMainBatchLocked() {
    pendingMain = false
    mainBatch = main.registrations
    observerBatch = observers.registrations
    mainBatchForced = mainNeedsDelivery
    mainNeedsDelivery = false
  }

  @usableFromInline
  @MainActor
  override func deliverMainBatch(_ snapshot: Snapshot<State>, stats: inout DeliveryStats) {
    var batch = ContiguousArray<RegistrationBase>()
    swap(&batch, &mainBatch)
    var observing = ContiguousArray<RegistrationBase>()
    swap(&observing, &observerBatch)
    guard !(batch.isEmpty && observing.isEmpty) else { return }
    let (delivered, skipped) = selector.deliverMain(
      snapshot, batch, observing, lastMain, mainBatchForced)
    stats.deliveries &+= delivered
    stats.skipped &+= skipped
  }

  override func takeActorBatchLocked(_ key: ObjectIdentifier) -> ActorBatch? {
    guard let target = actors[key] else { return nil }
    actors[key]!.pending = false
    actors[key]!.needsDelivery = false
    return ActorBatch(
      registrations: target.list.registrations, lastValue: actorValues[key],
      force: target.needsDelivery)
  }

  override func deliver(
    _ batch: ActorBatch, snapshot: Snapshot<State>, on actor: isolated any Actor,
    stats: inout DeliveryStats
  ) -> (any Sendable)? {
    let value = selector.project(snapshot.state)
    if !batch.force, selector.removesDuplicates, (batch.lastValue as? Value) == value {
      stats.skipped &+= UInt64(batch.registrations.count)
      return nil
    }
    let change = Change(value: value, version: snapshot.version)
    stats.deliveries &+= batch.registrations.forEachActive(as: ActorRegistration<Value>.self) {
      $0.callback(actor, change)
    }
    return value
  }

  override func finishActorBatchLocked(_ key: ObjectIdentifier, delivered: (any Sendable)?) {
    guard let value = delivered as? Value, actors[key] != nil else { return }
    actorValues[key] = value
  }

  override func removeLocked(_ registration: RegistrationBase) -> Bool {
    if sync.remove(registration) || main.remove(registration) || observers.remove(registration) {
      subscriberCount.subtract(1, ordering: .relaxed)
    } else if let key = actors.first(where: { $0.value.list.contains(registration) })?.key {
      actors[key]!.list.remove(registration)
      if actors[key]!.list.isEmpty {
        actors[key] = nil
        actorValues[key] = nil
      }
      subscriberCount.subtract(1, ordering: .relaxed)
    }
    return sync.isEmpty && main.isEmpty && observers.isEmpty && actors.isEmpty
  }

  override func removeAllLocked() {
    sync.removeAll()
    main.removeAll()
    observers.removeAll()
    actors.removeAll()
    subscriberCount.store(0, ordering: .relaxed)
  }
}

/// The group behind `changes`: every commit, the whole snapshot, synchronous delivery only.
///
/// `@unchecked Sendable` for the reasons on `GroupBase`: `sync` is touched under the cell's
/// lock; `batch` and `state` only by the owner's serialized commits.
@usableFromInline
final class EveryCommitGroup<State: Sendable>: AnyGroup<State>, @unchecked Sendable {
  var sync = SubscriberList()
  private var batch: ContiguousArray<RegistrationBase> = []
  private var state: State?

  override var selectorDescription: String { "every commit" }

  @usableFromInline
  override func evaluate(_ state: State) -> Bool {
    self.state = state
    return true
  }

  @usableFromInline
  override func prepareLocked() -> Bool {
    batch = sync.registrations
    return false
  }

  @usableFromInline
  override func deliverSyncBatch(version: UInt64, stats: inout DeliveryStats) {
    guard let state else { return }
    self.state = nil
    let batch = self.batch
    self.batch = []
    let snapshot = Snapshot(version: version, state: state)
    stats.deliveries &+= batch.forEachActive(as: SnapshotRegistration<State>.self) {
      $0.callback(snapshot)
    }
  }

  override func removeLocked(_ registration: RegistrationBase) -> Bool {
    if sync.remove(registration) { subscriberCount.subtract(1, ordering: .relaxed) }
    return sync.isEmpty
  }

  override func removeAllLocked() {
    sync.removeAll()
    subscriberCount.store(0, ordering: .relaxed)
  }
}
