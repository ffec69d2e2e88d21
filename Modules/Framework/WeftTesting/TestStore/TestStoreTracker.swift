import WeftCore
import WeftFeedback

/// What a `TestStore` learns from its system, recorded under a lock from whatever isolation
/// reports it, with one waiter that is woken when a condition on the record holds.
///
/// - Note: Isolation: thread-safe.
final class TestStoreTracker<State: Sendable, Event: Sendable>: Sendable {
  /// One reduced event.
  struct Transition: Sendable {
    let serial: Int
    let event: Event
    let state: State
    var changes = EffectChanges()
  }

  /// An effect launched and not yet finished.
  struct RunningEffect: Sendable {
    let activity: EffectActivity
    let startedBy: String

    var summary: String {
      let name = "\(activity.feedback) #\(activity.effect.serial)"
      let subject = activity.detail.map { "\(name) for \($0)" } ?? name
      return "\(subject), started by \(startedBy)"
    }
  }

  struct Record: Sendable {
    /// How the send in progress is described, while `TestStore.send` reduces its event.
    var sending: String?
    /// The transition of the event being sent.
    var sent: Transition?
    /// Events fed back by effects and not yet asserted.
    var pending: [Transition] = []
    /// Effects launched while showing the initial state to the feedbacks.
    var atStart = EffectChanges()
    /// Which transition effect launches and cancellations belong to (nil: the start).
    var current: Int?
    var nextSerial = 0
    /// What launched effects are said to be started by.
    var label = "the initial state"
    var running: [EffectID: RunningEffect] = [:]
    var activities: [EffectActivity] = []

    mutating func withChanges(_ body: (inout EffectChanges) -> Void) {
      if let current, sent?.serial == current {
        body(&sent!.changes)
      } else if let current, let index = pending.lastIndex(where: { $0.serial == current }) {
        body(&pending[index].changes)
      } else if current == nil {
        body(&atStart)
      }
    }
  }

  private struct Waiter {
    let condition: @Sendable (Record) -> Bool
    let continuation: CheckedContinuation<Bool, Never>
    var timer: Task<Void, Never>?
  }

  private struct Storage {
    var record = Record()
    var waiter: Waiter?
  }

  private let storage = Locked(Storage())

  var record: Record { storage.withLock { $0.record } }

  /// Changes the record and wakes the waiter if its condition now holds.
  func update<Result>(_ body: (inout Record) -> Result) -> Result {
    let (result, woken) = storage.withLock { storage -> (Result, Waiter?) in
      let result = body(&storage.record)
      guard let waiter = storage.waiter, waiter.condition(storage.record) else {
        return (result, nil)
      }
      storage.waiter = nil
      return (result, waiter)
    }
    woken?.timer?.cancel()
    woken?.continuation.resume(returning: true)
    return result
  }

  /// Called by the system after each reduction, on its host.
  func transition(_ event: Event, _ state: State) {
    update { record in
      let serial = record.nextSerial
      record.nextSerial += 1
      record.current = serial
      let transition = Transition(serial: serial, event: event, state: state)
      if let sending = record.sending, record.sent == nil {
        record.sent = transition
        record.label = sending
      } else {
        record.pending.append(transition)
        record.label = "the fed-back event \(Rendering.inline(event))"
      }
    }
  }

  /// Called by the system for each step of each effect.
  func activity(_ activity: EffectActivity) {
    update { record in
      record.activities.append(activity)
      switch activity.kind {
      case .scheduled:
        record.running[activity.effect] = RunningEffect(
          activity: activity, startedBy: record.label)
        record.withChanges { $0.started.append(activity.feedback) }
      case .cancelled:
        record.withChanges { $0.cancelled.append(activity.feedback) }
      case .finished:
        record.running[activity.effect] = nil
      case .started:
        break
      }
    }
  }

  /// Waits until `condition` holds for the record, or `timeout` of real time passes (a
  /// bound that only a failing test reaches). Returns whether the condition held.
  func wait(
    until condition: @escaping @Sendable (Record) -> Bool, timeout: Duration
  ) async -> Bool {
    await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      let ready = storage.withLock { storage -> Bool in
        if condition(storage.record) { return true }
        storage.waiter = Waiter(condition: condition, continuation: continuation)
        return false
      }
      if ready {
        continuation.resume(returning: true)
        return
      }
      let timer = Task { [weak self] in
        try? await Task.sleep(for: timeout)  // try?: only CancellationError, checked next
        guard !Task.isCancelled else { return }
        self?.expire()
      }
      let alreadyWoken = storage.withLock { storage -> Bool in
        guard storage.waiter != nil else { return true }
        storage.waiter?.timer = timer
        return false
      }
      if alreadyWoken { timer.cancel() }
    }
  }

  private func expire() {
    let waiter = storage.withLock { storage -> Waiter? in
      defer { storage.waiter = nil }
      return storage.waiter
    }
    waiter?.continuation.resume(returning: false)
  }
}
