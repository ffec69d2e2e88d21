import Synchronization

/// Knows every client, context and view and how they link, so the architecture's rules can
/// be checked at run time: one context per view, no cycles between contexts, contexts read
/// clients but never the other way round.
///
/// ```swift
/// let registry = ComponentRegistry()
/// let client = registry.register(.client, name: "AuthClient")
/// let context = registry.register(.context, name: "LoginContext")
/// let view = registry.register(.view, name: "LoginView")
/// registry.link(context, to: client)
/// registry.link(view, to: context)
/// registry.violations()   // []
/// ```
///
/// - Complexity: `register`, `unregister` and `link` are O(1) expected; `violations()` is
///   O(n + l), n = components, l = links.
/// - Note: Isolation: thread-safe.
public final class ComponentRegistry: Sendable {
  /// A process-wide registry that contexts and views report to by default.
  public static let shared = ComponentRegistry()

  /// What a component is.
  public enum Kind: String, Sendable, Codable, Hashable {
    case client, context, view
  }

  /// A registered component.
  public struct Component: Sendable, Hashable {
    /// The registry's id for it.
    public let id: ComponentID
    /// What it is.
    public let kind: Kind
    /// Its name, for messages.
    public let name: String
  }

  private struct State {
    var nextID: UInt64 = 0
    var components: [ComponentID: Component] = [:]
    /// from → set of to
    var links: [ComponentID: Set<ComponentID>] = [:]
    /// to → set of from, so unregistering touches only the component's own links
    var incoming: [ComponentID: Set<ComponentID>] = [:]
  }

  private let state = Locked(State())

  /// Makes an empty registry.
  public init() {}

  /// Records a component and returns its id.
  public func register(_ kind: Kind, name: String) -> ComponentID {
    state.withLock { state in
      state.nextID += 1
      let id = ComponentID(rawValue: state.nextID)
      state.components[id] = Component(id: id, kind: kind, name: name)
      return id
    }
  }

  /// Forgets a component and every link from or to it.
  ///
  /// - Complexity: O(l), l = links from and to this component.
  public func unregister(_ id: ComponentID) {
    state.withLock { state in
      state.components[id] = nil
      for target in state.links.removeValue(forKey: id) ?? [] {
        state.incoming[target]?.remove(id)
      }
      for source in state.incoming.removeValue(forKey: id) ?? [] {
        state.links[source]?.remove(id)
      }
    }
  }

  /// Records that `from` depends on `to` (a view on its context, a context on a client or
  /// on a subcontext it composes).
  public func link(_ from: ComponentID, to: ComponentID) {
    state.withLock { state in
      state.links[from, default: []].insert(to)
      state.incoming[to, default: []].insert(from)
    }
  }

  /// Removes a link.
  public func unlink(_ from: ComponentID, from to: ComponentID) {
    state.withLock { state in
      state.links[from]?.remove(to)
      state.incoming[to]?.remove(from)
    }
  }

  /// The component with `id`, if registered.
  public func component(_ id: ComponentID) -> Component? {
    state.withLock { $0.components[id] }
  }

  /// Components of `kind`, sorted by id.
  public func components(of kind: Kind) -> [Component] {
    state.withLock { $0.components.values.filter { $0.kind == kind } }.sorted { $0.id < $1.id }
  }

  /// Every broken rule, in a stable order.
  public func violations() -> [ArchitectureViolation] {
    let (components, links) = state.withLock { ($0.components, $0.links) }
    var found: [ArchitectureViolation] = []
    for id in components.keys.sorted() {
      let component = components[id]!
      let targets = (links[id] ?? []).compactMap { components[$0] }.sorted { $0.id < $1.id }
      switch component.kind {
      case .view:
        let contexts = targets.filter { $0.kind == .context }
        if contexts.count > 1 {
          found.append(
            .viewHasSeveralContexts(view: component.name, contexts: contexts.map(\.name)))
        }
      case .client:
        for target in targets where target.kind != .client {
          found.append(.clientDependsOnUI(client: component.name, dependency: target.name))
        }
      case .context:
        for target in targets where target.kind == .view {
          found.append(.contextDependsOnView(context: component.name, view: target.name))
        }
      }
    }
    found += Self.cycles(components: components, links: links)
    return found
  }

  private static func cycles(
    components: [ComponentID: Component], links: [ComponentID: Set<ComponentID>]
  ) -> [ArchitectureViolation] {
    enum Mark { case visiting, done }
    var marks: [ComponentID: Mark] = [:]
    var path: [ComponentID] = []
    var found: [ArchitectureViolation] = []
    func visit(_ id: ComponentID) {
      marks[id] = .visiting
      path.append(id)
      for next in (links[id] ?? []).sorted() where components[next] != nil {
        switch marks[next] {
        case .visiting:
          let start = path.firstIndex(of: next)!
          let names = (path[start...] + [next]).map { components[$0]!.name }
          found.append(.cycle(names))
        case .done: break
        case nil: visit(next)
        }
      }
      path.removeLast()
      marks[id] = .done
    }
    for id in components.keys.sorted() where marks[id] == nil { visit(id) }
    return found
  }
}

/// The identity of a registered component.
public struct ComponentID: RawRepresentable, Hashable, Comparable, Sendable, Codable {
  /// The registry's number for it.
  public let rawValue: UInt64

  /// Wraps a raw id.
  public init(rawValue: UInt64) { self.rawValue = rawValue }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A broken architecture rule, with the names needed to find it.
public enum ArchitectureViolation: Sendable, Hashable, CustomStringConvertible {
  /// A view is linked to more than one context (the rule is one context per view).
  case viewHasSeveralContexts(view: String, contexts: [String])
  /// A client depends on a context or a view.
  case clientDependsOnUI(client: String, dependency: String)
  /// A context depends on a view.
  case contextDependsOnView(context: String, view: String)
  /// Components depend on each other in a cycle (names in order, first repeated last).
  case cycle([String])

  public var description: String {
    switch self {
    case .viewHasSeveralContexts(let view, let contexts):
      "view '\(view)' is linked to \(contexts.count) contexts ("
        + contexts.map { "'\($0)'" }.joined(separator: ", ")
        + "); a view has exactly one context: compose the others into it"
    case .clientDependsOnUI(let client, let dependency):
      "client '\(client)' depends on '\(dependency)'; clients never depend on contexts or views"
    case .contextDependsOnView(let context, let view):
      "context '\(context)' depends on view '\(view)'; links point from views to contexts"
    case .cycle(let names):
      "dependency cycle: " + names.joined(separator: " -> ")
    }
  }
}
