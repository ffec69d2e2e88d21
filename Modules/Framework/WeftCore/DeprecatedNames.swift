// The names WeftCore had before 0.2: each collided with a name users import next to Weft
// (Foundation's `Selector` on Apple platforms, Combine's `Subscription`). Kept for one release;
// CHANGELOG.md lists every rename.

/// The old name of `StateSelector` (it collided with Foundation's `Selector`).
@available(*, deprecated, renamed: "StateSelector")
public typealias Selector<State: Sendable, Value: Equatable & Sendable> = StateSelector<
  State, Value
>

/// The old name of `StateSubscription` (it collided with Combine's `Subscription`).
@available(*, deprecated, renamed: "StateSubscription")
public typealias Subscription = StateSubscription
