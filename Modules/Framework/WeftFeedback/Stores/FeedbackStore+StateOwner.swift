import WeftCore

/// A store owns its state: `StateOwner`'s read and observe API works on it (its own
/// MainActor `state` stays the one a view reads).
extension FeedbackStore: StateOwner {}
