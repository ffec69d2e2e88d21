// The name WeftFeedback's store had before 0.2: it collided with TCA's `Store`. Kept for one
// release; CHANGELOG.md lists every rename.

/// The old name of `FeedbackStore` (it collided with The Composable Architecture's `Store`).
@available(*, deprecated, renamed: "FeedbackStore")
public typealias Store<State: Sendable, Action: Sendable, Event: Sendable, Route: Sendable> =
  FeedbackStore<State, Action, Event, Route>
