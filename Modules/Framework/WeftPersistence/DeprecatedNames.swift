// The name WeftPersistence's write transaction had before 0.2: it collided with SwiftUI's
// `Transaction`. Kept for one release; CHANGELOG.md lists every rename.

/// The old name of `DatabaseTransaction` (it collided with SwiftUI's `Transaction`).
@available(*, deprecated, renamed: "DatabaseTransaction")
public typealias Transaction = DatabaseTransaction
