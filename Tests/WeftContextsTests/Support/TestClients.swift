import WeftContexts
import WeftCore

/// A profile, the state of `ProfileClient`.
struct Profile: Sendable, Equatable {
  var name = ""
  var age = 0
  var nickname = ""
  var isLoggedIn = false
  var visits = 0
  var query = ""
  var temperature = 20.0
}

/// A client owning a `Profile`.
actor ProfileClient: Client {
  nonisolated let cell: StateCell<Profile>

  init(
    name: String = "ProfileClient", _ initial: Profile = Profile(),
    monitor: PerformanceMonitor = .shared
  ) {
    cell = StateCell(initial, name: name, monitor: monitor)
  }
}

/// A counter with a name, the state of `LedgerClient`.
struct Ledger: Sendable, Equatable {
  var amount = 0
  var entries: [String] = []
}

/// A client owning a `Ledger` (transactions use three of them).
actor LedgerClient: Client {
  nonisolated let cell: StateCell<Ledger>

  init(name: String, amount: Int = 0, monitor: PerformanceMonitor = .shared) {
    cell = StateCell(Ledger(amount: amount), name: name, monitor: monitor)
  }
}

/// A headless view that renders its context's profile name and counts its renders.
final class NameView: HeadlessView {
  var attachment: ViewAttachment
  let context: ClientContext<ProfileClient>
  private(set) var lastRendering: String?

  init(name: String = "NameView", context: ClientContext<ProfileClient>) {
    self.attachment = ViewAttachment(name: name)
    self.context = context
    link(to: context)
  }

  func render() -> String { "Name: \(context.state.name)" }

  func didRender(_ rendering: String) { lastRendering = rendering }
}

/// A headless view that renders a fixed label; used for hierarchy tests.
final class LabelView: HeadlessView {
  var attachment: ViewAttachment
  let label: String
  private(set) var renderings: [String] = []

  init(_ label: String) {
    self.attachment = ViewAttachment(name: label)
    self.label = label
  }

  func render() -> String { label }

  func didRender(_ rendering: String) { renderings.append(rendering) }
}

/// A fresh subtree root for one test, with its own component registry.
@MainActor
func makeRoot(_ name: String = "Test") -> Context {
  let root = Context.global.createSubcontext(named: name)
  root.componentRegistry = ComponentRegistry()
  return root
}
