/// The 1:1 link between a view and its context, checked by the component registry.
extension HeadlessView {
  /// Links this view to `context`: the context's `willChange` signals re-render the view,
  /// and the component registry records the link (both are registered on first link, in
  /// the context's `componentRegistry`). The view keeps the first context it links to.
  ///
  /// ```swift
  /// init(context: ProfileContext) {
  ///   self.context = context
  ///   link(to: context)
  /// }
  /// ```
  ///
  /// > Important: A view has exactly one context. Linking a second one is allowed, so that
  /// > the mistake is visible rather than fatal: `ComponentRegistry.violations()` reports
  /// > `.viewHasSeveralContexts` naming the view and both contexts. A context serves
  /// > exactly one view: linking a second view to it traps (`tryLink` throws instead).
  ///
  /// - Complexity: O(d) expected, d = the context's depth (its path names it in the
  ///   registry on first link).
  /// - Note: Isolation: MainActor.
  /// - Note: Allocations: a registry token for the view and one for the context, on their
  ///   first link.
  public func link(to context: Context) {
    trapOnError { () throws(ContextError) in try tryLink(to: context) }
  }

  /// Throwing twin of `link(to:)`.
  ///
  /// - Throws: `ContextError.contextHasAnotherView` if `context` serves another live view.
  /// - Complexity: O(d) expected on first link, d = the context's depth; O(1) after.
  public func tryLink(to context: Context) throws(ContextError) {
    if let other = context.linkedView, other !== self {
      throw .contextHasAnotherView(
        context: context.path, view: viewName, linkedView: other.viewName)
    }
    let contextID = context.componentID
    let token =
      attachment.component
      ?? ComponentToken(.view, name: viewName, in: context.componentRegistry)
    attachment.component = token
    token.registry.link(token.id, to: contextID)
    if attachment.context == nil { attachment.context = context }
    context.linkedView = self
  }

  /// Removes the link to `context`, if there is one.
  ///
  /// - Complexity: O(1) expected.
  public func unlink(from context: Context) {
    guard context.linkedView === self else { return }
    context.linkedView = nil
    if let token = attachment.component, let contextToken = context.component {
      token.registry.unlink(token.id, from: contextToken.id)
    }
    if attachment.context === context { attachment.context = nil }
  }

  /// The first context this view linked to.
  ///
  /// - Complexity: O(1).
  public var linkedContext: Context? { attachment.context }
}
