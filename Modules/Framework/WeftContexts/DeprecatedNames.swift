// The names WeftContexts had before 0.2: each collided with SwiftUI's. Kept for one release;
// CHANGELOG.md lists every rename.

/// The old name of `ContextBinding` (it collided with SwiftUI's `Binding`).
@available(*, deprecated, renamed: "ContextBinding")
public typealias Binding<Value> = ContextBinding<Value>

/// The old name of `ContextWindow` (it collided with SwiftUI's `Window`).
@available(*, deprecated, renamed: "ContextWindow")
public typealias Window = ContextWindow

extension ClientContext {
  /// The old name of `waitForWrites()` ("settle" meant four things; issue 39 kept it for the
  /// deterministic runtime's "until no job is runnable").
  ///
  /// - Complexity: as `waitForWrites()`.
  @available(*, deprecated, renamed: "waitForWrites()")
  public func settle() async { await waitForWrites() }
}
