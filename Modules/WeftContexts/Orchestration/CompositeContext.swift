/// A context for a complex view that composes other contexts: it keeps them, forwards
/// their `willChange` signals to its own view, and records the composition in the
/// component registry — so the view still has exactly one context.
///
/// ```swift
/// let dashboard = CompositeContext(named: "Dashboard", in: appContext)
/// let profile = dashboard.compose(ProfileContext(client: profileClient, in: dashboard))
/// let orders = dashboard.compose(OrdersContext(client: ordersClient, in: dashboard))
/// dashboardView.link(to: dashboard)   // one view, one context
/// ```
///
/// - Complexity: `compose` is O(d) expected, d = depth (the registry names contexts by
///   path on first use).
/// - Note: Isolation: MainActor.
/// - Note: Allocations: the composed array grows geometrically; a registry token per
///   context on first composition.
@MainActor
open class CompositeContext: Context {
  /// The composed contexts, in composition order.
  ///
  /// - Complexity: O(1) to read.
  public private(set) var composed: [Context] = []

  /// Keeps `context`, forwards its `willChange` signals to this context, and links this
  /// context to it in the component registry. A detached `context` is attached below this
  /// one; one created elsewhere in the tree stays where it is.
  ///
  /// - Returns: `context`, for chaining.
  /// - Complexity: O(d) expected the first time, d = depth (registry name); O(1)
  ///   amortized after.
  @discardableResult
  public func compose<Composed: Context>(_ context: Composed) -> Composed {
    if context.supercontext == nil, context !== Context.global, context !== self {
      adopt(context)
    }
    composed.append(context)
    context.composer = self
    componentRegistry.link(componentID, to: context.componentID)
    return context
  }
}
