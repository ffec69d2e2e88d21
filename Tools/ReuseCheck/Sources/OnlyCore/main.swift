// A consumer of WeftCore alone: an actor-owned counter observed synchronously.
import WeftCore

struct Counter: Sendable, Equatable { var value = 0 }

let cell = StateCell(Counter(), name: "reuse.core")
let subscription = cell.observeSynchronously(\.value) { print("value: \($0.value)") }
cell.update { $0.value = 1 }
subscription.cancel()
