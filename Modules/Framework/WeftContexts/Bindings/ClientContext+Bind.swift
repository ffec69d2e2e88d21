import WeftCore

/// Plain, derived and conditional bindings to the primary client's state.
extension ClientContext {
  /// A binding to the value at `keyPath`: reads the mirror; each write asks the client for
  /// one update that sets the value.
  ///
  /// ```swift
  /// let name = context.bind(\.name)
  /// name.set("Ada")          // one commit on the client
  /// await context.waitForWrites()
  /// name.get()               // "Ada"
  /// ```
  ///
  /// > Note: A write shows in `get()` once it reached the client (after `waitForWrites()`, or
  /// > after the client's MainActor delivery), not at once.
  ///
  /// - Complexity: `get` O(1); `set` O(1) here plus one client update.
  /// - Note: Isolation: MainActor; the write runs on the client's actor.
  /// - Note: Allocations: two closures per binding; one task per write.
  public func bind<Value: Sendable>(
    _ keyPath: any WritableKeyPath<C.State, Value> & Sendable
  ) -> ContextBinding<Value> {
    let mirror = self.mirror
    return ContextBinding(
      get: { mirror.snapshot.state[keyPath: keyPath] },
      set: { [weak self] value in self?.send { $0[keyPath: keyPath] = value } })
  }

  /// A binding that reads `nil` unless `condition` holds on the state, and ignores writes
  /// (and `nil`) while it does not. The condition is checked again on the client's actor,
  /// so a write that raced with a change of the condition is refused there, committing
  /// nothing. Refused writes count in `ignoredWriteCount`.
  ///
  /// ```swift
  /// let nickname = context.bind(\.nickname, when: { $0.isLoggedIn })   // ContextBinding<String?>
  /// ```
  ///
  /// - Complexity: one `condition` call per read and per write (twice for a write).
  public func bind<Value: Sendable>(
    _ keyPath: any WritableKeyPath<C.State, Value> & Sendable,
    when condition: @escaping @Sendable (C.State) -> Bool
  ) -> ContextBinding<Value?> {
    let mirror = self.mirror
    return ContextBinding(
      get: {
        let state = mirror.snapshot.state
        return condition(state) ? state[keyPath: keyPath] : nil
      },
      set: { [weak self] value in
        guard let self else { return }
        guard let value, condition(mirror.snapshot.state) else {
          ignoredWriteCount += 1
          return
        }
        enqueue(
          { client -> Bool in
            do throws(ConditionStoppedHolding) {
              try await client.update { (state) throws(ConditionStoppedHolding) in
                guard condition(state) else { throw ConditionStoppedHolding() }
                state[keyPath: keyPath] = value
              }
              return true
            } catch {
              return false
            }
          },
          then: { [weak self] written in if !written { self?.ignoredWriteCount += 1 } })
      })
  }

  /// A read-only value computed from the state and cached by state version: `compute`
  /// runs again only when the mirror's version changed since the last read.
  ///
  /// ```swift
  /// let summary = context.derived { "\($0.items.count) items, \($0.total) total" }
  /// summary.value
  /// ```
  ///
  /// - Complexity: O(1) for a read at a version already computed; `compute` otherwise.
  /// - Note: Allocations: the `Derived` object; whatever `compute` allocates, once per
  ///   version read.
  public func derived<Value>(_ compute: @escaping (C.State) -> Value) -> Derived<Value> {
    let mirror = self.mirror
    return Derived(
      version: { mirror.snapshot.version }, compute: { compute(mirror.snapshot.state) })
  }

  /// A value computed from the state on every read (no cache); use `derived` when the
  /// computation is expensive.
  ///
  /// - Complexity: one `compute` call.
  public func computed<Value>(_ compute: (C.State) -> Value) -> Value {
    compute(mirror.snapshot.state)
  }
}

/// Thrown inside the client's update to refuse a conditional write without committing.
struct ConditionStoppedHolding: Error {}
