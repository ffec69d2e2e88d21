/// The view hierarchy: superviews, subviews and the window.
extension HeadlessView {
  /// The window this view is attached to (directly or through its superviews), if any.
  ///
  /// - Complexity: O(1).
  public var window: ContextWindow? { attachment.window }

  /// Whether the view is attached to a window.
  ///
  /// - Complexity: O(1).
  public var isAttached: Bool { attachment.window != nil }

  /// The view this one was added to, if any.
  ///
  /// - Complexity: O(1).
  public var superview: (any HeadlessView)? { attachment.superview }

  /// The views added to this one (detaching moves the last into the freed place).
  ///
  /// - Complexity: O(s), s = subviews (a copy).
  public var subviews: [any HeadlessView] { Array(attachment.subviews) }

  /// Adds `subview` under this view, moving it from wherever it was. If this view is
  /// attached to a window, `subview` and its subviews become attached and render once.
  ///
  /// > Important: Adding a view under itself or under one of its own subviews traps;
  /// > `tryAddSubview` throws instead.
  ///
  /// - Complexity: O(h + v), h = this view's depth, v = views in `subview`'s subtree.
  public func addSubview(_ subview: any HeadlessView) {
    trapOnError { () throws(ContextError) in try tryAddSubview(subview) }
  }

  /// Throwing twin of `addSubview(_:)`.
  ///
  /// - Throws: `ContextError.viewCycle` if this view is `subview` or lies inside it.
  /// - Complexity: O(h + v), h = this view's depth, v = views in `subview`'s subtree.
  public func tryAddSubview(_ subview: any HeadlessView) throws(ContextError) {
    var next: (any HeadlessView)? = self
    while let ancestor = next {
      if ancestor === subview {
        throw .viewCycle(view: viewName, subview: subview.viewName)
      }
      next = ancestor.attachment.superview
    }
    subview.removeFromSuperview()
    subview.attachment.superview = self
    subview.attachment.index = attachment.subviews.count
    attachment.subviews.append(subview)
    setWindow(attachment.window, forSubtreeOf: subview)
  }

  /// Removes the view from its superview, or from its window if it is a root view; it and
  /// its subviews are detached. Does nothing for a view that is in no hierarchy.
  ///
  /// - Complexity: O(v), v = views in this view's subtree.
  public func removeFromSuperview() {
    let index = attachment.index
    if let superview = attachment.superview {
      if index < superview.attachment.subviews.count,
        superview.attachment.subviews[index] === self
      {
        swapRemove(&superview.attachment.subviews, at: index)
      }
      attachment.superview = nil
    } else if let window = attachment.window {
      if index < window.roots.count, window.roots[index] === self {
        swapRemove(&window.roots, at: index)
      }
    }
    setWindow(nil, forSubtreeOf: self)
  }
}
