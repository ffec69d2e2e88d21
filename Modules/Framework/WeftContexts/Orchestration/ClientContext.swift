import WeftCore

/// An orchestration context: a node of the context tree bound to one primary client (and
/// optional supporting clients) that reads client state synchronously through a MainActor
/// mirror and never mutates it itself — it asks the client.
///
/// ```swift
/// final class ProfileContext: ClientContext<ProfileClient> {
///   init(client: ProfileClient, in parent: Context) {
///     super.init(client: client, named: "Profile", in: parent)
///     dependsOn(\.name)               // willChange only when the name changes
///   }
///   var greeting: String { "Hello, \(state.name)" }
/// }
///
/// let context = ProfileContext(client: profile, in: appContext)
/// let name = context.bind(\.name)     // ContextBinding<String>
/// name.set("Ada")                     // one client update
/// await context.waitForWrites()
/// ```
///
/// The mirror is shared by every context on the same client and kept current by WeftCore's
/// coalesced MainActor fan-out (one MainActor call per commit burst per client); between
/// deliveries, `state` is the state of the last commit delivered (or written by this
/// context, once its write finished).
///
/// # Performance
/// Reading `state` is a property load. A commit reaches this context only through the
/// selectors it declared with `dependsOn`: one comparison per distinct selector per commit,
/// shared with every other context declaring the same one, and one call here when the
/// value changed. Writes cost one task each and run in the order they were started. What
/// is slow: declaring a selector that is expensive to project (it runs on every commit),
/// and many contexts with distinct selectors (each is compared on every commit).
///
/// - Note: Isolation: MainActor; writes run on the client's actor.
/// - Note: Allocations: the context; one shared mirror per client; one subscription per
///   `dependsOn`; one task per write.
@MainActor
open class ClientContext<C: Client>: Context {
  /// The primary client: the one whose state `state` mirrors and bindings write.
  public let client: C
  /// Clients this context also reads or orchestrates (transactions include them).
  public let supportingClients: [any Client]

  let mirror: StateMirror<C.State>
  private var dependencies: ContiguousArray<StateSubscription> = []
  private var lastSignalledVersion: UInt64
  var writeTail: (@Sendable () async -> Void)?
  var work: PendingWork?
  var debouncers: [WeakFlusher] = []

  /// Writes refused by conditional bindings while their condition did not hold.
  ///
  /// - Complexity: O(1).
  public internal(set) var ignoredWriteCount = 0

  /// Makes a context on `client`, attached below `supercontext`, named `name` or after
  /// its type.
  ///
  /// - Parameters:
  ///   - client: the primary client.
  ///   - supporting: other clients this context reads or orchestrates.
  ///   - name: the context's name in paths and messages.
  ///   - supercontext: where to attach it (`nil` makes a detached root).
  /// - Complexity: O(1) amortized.
  public init(
    client: C, supporting: [any Client] = [], named name: String? = nil,
    in supercontext: Context? = .global
  ) {
    self.client = client
    self.supportingClients = supporting
    self.mirror = StateMirror.shared(for: client.cell)
    self.lastSignalledVersion = 0
    super.init(optionalName: name, in: supercontext)
    lastSignalledVersion = mirror.snapshot.version
  }

  /// The primary client's latest delivered snapshot.
  ///
  /// - Complexity: O(1).
  public var snapshot: Snapshot<C.State> { mirror.snapshot }

  /// The primary client's latest delivered state.
  ///
  /// - Complexity: O(1) (a copy of the state value).
  public var state: C.State { mirror.snapshot.state }

  /// The version of `state`.
  ///
  /// - Complexity: O(1).
  public var version: UInt64 { mirror.snapshot.version }

  /// The latest delivered snapshot of `other` (a supporting client, or any client), read
  /// through its shared MainActor mirror.
  ///
  /// - Complexity: O(1) expected.
  public func snapshot<Other: Client>(of other: Other) -> Snapshot<Other.State> {
    StateMirror.shared(for: other.cell).snapshot
  }

  // MARK: Selective updates

  /// Declares that this context's view renders the value at `keyPath`: a commit that
  /// changes it signals `willChange`, and commits that do not cost this context nothing.
  ///
  /// Several dependencies changed by one commit burst signal once.
  ///
  /// - Complexity: O(1) amortized.
  /// - Note: Allocations: one subscription.
  public func dependsOn<Value: Equatable & Sendable>(
    _ keyPath: any KeyPath<C.State, Value> & Sendable
  ) {
    dependsOn(StateSelector(keyPath))
  }

  /// Declares a dependency on a projection of the state (see WeftCore's `StateSelector`).
  ///
  /// - Complexity: O(1) amortized.
  public func dependsOn<Value: Equatable & Sendable>(_ selector: StateSelector<C.State, Value>) {
    let subscription = client.observeOnMainActor(selector) { [weak self] change in
      self?.dependencyChanged(at: change.version)
    }
    dependencies.append(subscription)
    mirror.catchUp(to: client.cell.version)
  }

  /// Declares a dependency on a value of another client: a change signals `willChange`
  /// (once per delivery of that client).
  ///
  /// - Complexity: O(1) amortized.
  public func dependsOn<Other: Client, Value: Equatable & Sendable>(
    _ keyPath: any KeyPath<Other.State, Value> & Sendable, of other: Other
  ) {
    let mirror = StateMirror.shared(for: other.cell)
    let subscription = other.observeOnMainActor(keyPath) { [weak self] change in
      mirror.catchUp(to: change.version)
      self?.signalWillChange()
    }
    dependencies.append(subscription)
    mirror.catchUp(to: other.cell.version)
  }

  /// Number of declared dependencies.
  ///
  /// - Complexity: O(1).
  public var dependencyCount: Int { dependencies.count }

  private func dependencyChanged(at version: UInt64) {
    guard version > lastSignalledVersion else { return }
    lastSignalledVersion = version
    mirror.catchUp(to: version)
    signalWillChange()
  }
}
