/// The root of a headless view hierarchy: views attached to it, directly or as subviews of
/// attached views, count as on screen.
///
/// ```swift
/// let window = ContextWindow(name: "main")
/// window.attach(formView)          // renders formView, then its subviews
/// formView.addSubview(fieldView)   // attached too: renders fieldView
/// window.detach(formView)          // formView and fieldView are detached
/// ```
///
/// A window keeps its root views; a view keeps its subviews. Requestables, observers and
/// executables added with `ifAttached:` hold only while their view is attached.
///
/// - Complexity: `attach` and `detach` are O(1) amortized plus O(v) for the v views in the
///   moved subtree (and one render for each view newly attached).
/// - Note: Isolation: MainActor.
/// - Note: Allocations: the root view array grows geometrically.
@MainActor
public final class ContextWindow {
  /// The window's name, for messages and reports.
  public let name: String
  var roots: ContiguousArray<any HeadlessView> = []

  /// Views attached to this window, subviews included.
  ///
  /// - Complexity: O(1).
  public internal(set) var viewCount = 0

  /// Renders of views while attached to this window.
  ///
  /// Counted from the views' own render counts, so that a render touches only its view:
  /// the count of each attachment's start and end, plus what the attached views count now.
  ///
  /// - Complexity: O(v), v = attached views.
  public var renderCount: Int {
    var count = closedRenders - openedRenders
    for root in roots { count += renderCountOfSubtree(root) }
    return count
  }

  /// The sum of attached views' render counts when they were attached, and of detached
  /// views' when they were detached (see `renderCount`).
  var openedRenders = 0
  var closedRenders = 0

  /// Makes an empty window.
  ///
  /// - Complexity: O(1).
  public init(name: String = "window") { self.name = name }

  /// Reserves room for `count` root views, so that attaching that many grows the root array
  /// once.
  ///
  /// - Complexity: O(r), r = root views (when the array moves).
  public func reserveCapacity(_ count: Int) { roots.reserveCapacity(count) }

  /// The views attached directly to the window, in attachment order until one is detached
  /// (detaching moves the last root into the freed place).
  ///
  /// - Complexity: O(r), r = root views (a copy).
  public var rootViews: [any HeadlessView] { Array(roots) }

  /// Attaches `view` (and its subviews) as a root view, moving it from wherever it was.
  /// Each view that was not attached to a window renders once, parents before children.
  ///
  /// - Complexity: O(1) amortized plus O(v), v = views in `view`'s subtree.
  public func attach(_ view: any HeadlessView) {
    view.removeFromSuperview()
    view.attachment.index = roots.count
    roots.append(view)
    setWindow(self, forSubtreeOf: view)
  }

  /// Detaches `view` (and its subviews) if it is attached to this window.
  ///
  /// - Complexity: O(v), v = views in `view`'s subtree.
  public func detach(_ view: any HeadlessView) {
    guard view.attachment.window === self else { return }
    view.removeFromSuperview()
  }

  /// Detaches every view.
  ///
  /// - Complexity: O(v), v = attached views.
  public func detachAll() {
    while let last = roots.last { last.removeFromSuperview() }
  }
}

/// Sets the window of `view` and everything below it, rendering views that become attached.
@MainActor
func setWindow(_ window: ContextWindow?, forSubtreeOf view: any HeadlessView) {
  let previous = view.attachment.window
  if previous !== window {
    let renders = view.attachment.renderCount
    if let previous {
      previous.viewCount -= 1
      previous.closedRenders += renders
    }
    if let window {
      window.viewCount += 1
      window.openedRenders += renders
    }
    view.attachment.window = window
    if previous == nil, window != nil { view.renderNow() }
  }
  for subview in view.attachment.subviews { setWindow(window, forSubtreeOf: subview) }
}

/// The render counts of `view` and everything below it.
@MainActor
func renderCountOfSubtree(_ view: any HeadlessView) -> Int {
  var count = view.attachment.renderCount
  for subview in view.attachment.subviews { count += renderCountOfSubtree(subview) }
  return count
}

/// Removes the element at `index` by moving the last one into its place.
@MainActor
func swapRemove(_ views: inout ContiguousArray<any HeadlessView>, at index: Int) {
  let last = views.removeLast()
  if index < views.count {
    views[index] = last
    last.attachment.index = index
  }
}
