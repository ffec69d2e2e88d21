// The names WeftContexts had before 0.2: each collided with SwiftUI's. Kept for one release;
// CHANGELOG.md lists every rename.

/// The old name of `ContextBinding` (it collided with SwiftUI's `Binding`).
@available(*, deprecated, renamed: "ContextBinding")
public typealias Binding<Value> = ContextBinding<Value>

/// The old name of `ContextWindow` (it collided with SwiftUI's `Window`).
@available(*, deprecated, renamed: "ContextWindow")
public typealias Window = ContextWindow
