/// A context for a complex view that composes other contexts: it forwards their
/// `willChange` signals to its own view and records the composition in the component
/// registry — so the view still has exactly one context.
///
/// ```swift
/// let dashboard = CompositeContext(named: "Dashboard", in: appContext)
/// let profile = dashboard.compose(ProfileContext(client: profileClient, in: dashboard))
/// let orders = dashboard.compose(OrdersContext(client: ordersClient, in: dashboard))
/// dashboardView.link(to: dashboard)   // one view, one context
/// // keep `profile` and `orders` (the view that renders them does): they keep `dashboard`
/// ```
///
/// > Important: Who keeps whom follows the tree's rule (a subcontext holds its
/// > supercontext strongly, a supercontext holds its subcontexts weakly). A part that lies
/// > **below** the composite (one created in it, or a detached one that `compose` adopts)
/// > holds the composite strongly, so the composite holds it weakly, like any subcontext:
/// > keep it, as you keep every leaf. A part that lies elsewhere in the tree is kept by
/// > the composite. Either way no cycle forms, and releasing the composite's owners and
/// > the parts' owners frees them all.
///
/// - Complexity: `compose` is O(d) expected, d = depth (the registry names contexts by
///   path on first use, and the composite checks whether the part lies below it).
/// - Note: Isolation: MainActor.
/// - Note: Allocations: the part list grows geometrically; a registry token per context
///   on first composition.
@MainActor
open class CompositeContext: Context {
  /// A composed part: held strongly only when it does not lie below the composite (a part
  /// below holds the composite strongly, so holding it back would form a cycle; the
  /// composite composing itself counts as below).
  private enum Part {
    case kept(Context)
    case below(WeakContext)

    var context: Context? {
      switch self {
      case .kept(let context): context
      case .below(let reference): reference.context
      }
    }
  }

  private var parts: [Part] = []

  /// The composed contexts still alive, in composition order.
  ///
  /// - Complexity: O(p), p = contexts composed.
  public var composed: [Context] { parts.compactMap(\.context) }

  /// Forwards `context`'s `willChange` signals to this context, and links this context to
  /// it in the component registry. A detached `context` is attached below this one (unless
  /// it is this composite's own root); one created elsewhere in the tree stays where it is.
  ///
  /// A part below this composite is held weakly (it holds the composite strongly: keep
  /// it); a part elsewhere is kept by the composite.
  ///
  /// - Returns: `context`, for chaining.
  /// - Complexity: O(d) expected, d = the part's depth (the check that it lies below this
  ///   one, and the registry name the first time); O(p) when the part's root was detached,
  ///   p = contexts composed.
  @discardableResult
  public func compose<Composed: Context>(_ context: Composed) -> Composed {
    if context.supercontext == nil, context !== Context.global, !isBelow(context) {
      adopt(context)
      // Adopting a detached root can bring parts kept so far below this composite.
      parts = parts.map { part in
        guard case .kept(let kept) = part, holdsThis(kept) else { return part }
        return .below(WeakContext(kept))
      }
    }
    parts.append(holdsThis(context) ? .below(WeakContext(context)) : .kept(context))
    context.composer = self
    componentRegistry.link(componentID, to: context.componentID)
    return context
  }

  /// Whether this composite is `context` or lies below it (adopting `context` then would
  /// make the tree a loop).
  private func isBelow(_ context: Context) -> Bool {
    var next: Context? = self
    while let node = next {
      if node === context { return true }
      next = node.supercontext
    }
    return false
  }

  /// Whether holding `context` strongly would form a cycle: it is this composite, or lies
  /// below it (and so holds it strongly through its chain).
  private func holdsThis(_ context: Context) -> Bool {
    var next: Context? = context
    while let node = next {
      if node === self { return true }
      next = node.supercontext
    }
    return false
  }
}
