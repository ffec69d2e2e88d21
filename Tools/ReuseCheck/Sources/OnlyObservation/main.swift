// A consumer of the Observation bridge alone: a view (a `withObservationTracking` block)
// reads one property of a client's state and is invalidated only when that property changes.
import Observation
import WeftCore
import WeftObservation

struct Inbox: Sendable, Equatable {
  var unread = 0
  var isSyncing = false
}

@MainActor
func run() {
  let model = ObservedState(StateCell(Inbox(), name: "reuse.observation"))
  withObservationTracking {
    print("unread: \(model.unread)")
  } onChange: {
    print("re-render")
  }
  model.cell.update { $0.isSyncing = true }  // read by nobody: invalidates nothing
  model.cell.update { $0.unread = 1 }  // invalidates the view above
  MainActorDeliveries.shared.drainNow()
}

MainActor.assumeIsolated { run() }
