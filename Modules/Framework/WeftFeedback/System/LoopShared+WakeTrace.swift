import WeftCore

/// A feedback system's effects as `TestClock` sees them: the clock marks an effect awake when
/// it wakes it, and asleep when it sleeps again; the system ends it when its task ends and
/// makes the effects a woken effect starts awake in the same group, so `advance` waits for a
/// timer's whole round (tick, reduce, re-arm) before the next deadline.
///
/// - Complexity: O(1) per call, plus the group's O(a).
/// - Note: Isolation: under the system's lock, from the clock's tasks.
extension LoopShared: WakeTraceHost {
  func markAwake(_ key: WakeKey, in group: WakeGroup) -> Bool {
    let id = EffectID(key)
    let previous = withLock { shared -> WakeGroup?? in
      guard shared.effects[id] != nil else { return nil }
      defer { shared.awake[id] = group }
      return .some(shared.awake[id])
    }
    guard let previous else { return false }
    previous?.leave(self, key)
    group.enter(self, key)
    return true
  }

  func markAsleep(_ key: WakeKey) -> WakeGroup? {
    withLock { $0.awake.removeValue(forKey: EffectID(key)) }
  }

  func describe(_ key: WakeKey) -> String {
    let id = EffectID(key)
    let detail = withLock { $0.effects[id]?.detail }
    let name = feedbackNames.indices.contains(id.feedback) ? feedbackNames[id.feedback] : "effect"
    let subject = "\(name) #\(id.serial)"
    return detail.map { "\(subject) for \($0)" } ?? subject
  }

  /// The group a new effect joins: its launcher's, when an awake effect of this system
  /// launched it (a woken effect's event), else the sending test store's fresh group.
  func joinWakeGroup(_ id: EffectID, launchedBy trace: WakeTrace?) {
    let group = withLock { shared -> WakeGroup? in
      var group = shared.fresh
      if let trace, trace.host === self, let parent = shared.awake[EffectID(trace.key)] {
        group = parent
      }
      if let group { shared.awake[id] = group }
      return group
    }
    group?.enter(self, id.wakeKey)
  }

  /// Runs `body` (a test store's send) with the effects it launches joining `group` until
  /// they first sleep on a clock or end.
  func withFreshWork<Result>(_ group: WakeGroup, _ body: () -> Result) -> Result {
    let previous = withLock { shared -> WakeGroup? in
      defer { shared.fresh = group }
      return shared.fresh
    }
    defer { withLock { $0.fresh = previous } }
    return body()
  }

  /// The effect's task ended: it no longer keeps an `advance` waiting.
  func ended(_ id: EffectID) {
    guard let group = withLock({ $0.awake.removeValue(forKey: id) }) else { return }
    group.leave(self, id.wakeKey)
  }
}

extension EffectID {
  init(_ key: WakeKey) { self.init(feedback: key.slot, serial: key.serial) }

  var wakeKey: WakeKey { WakeKey(slot: feedback, serial: serial) }
}
