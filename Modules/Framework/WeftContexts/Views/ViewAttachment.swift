import WeftCore

/// A headless view's bookkeeping, stored inline in the view: its render count, its window
/// and its place there; its name, superview, subviews and linked context live in a small
/// side object made on first need.
///
/// ```swift
/// final class RowView: HeadlessView {
///   var attachment = ViewAttachment(name: "Row")
///   ...
/// }
/// ```
///
/// > Important: Only the framework changes it; never assign a new one to a view in use.
///
/// # Performance
/// 32 bytes inline (pinned by a test). What every view needs on every render — the render
/// count — comes first; what only a view in a tree or linked to a context needs (name,
/// superview, subviews, context, registry token) is one side object, so a view that is
/// only attached to a window, as the simulator's million counting views are, costs
/// 32 bytes and no allocation.
///
/// - Complexity: O(1) to make.
/// - Note: Isolation: MainActor.
/// - Note: Allocations: none to make without a name; one side object when named, and on the
///   first subview, superview or context link otherwise.
@MainActor
public struct ViewAttachment {
  // Usable from inline code: `renderNow()` is inlined into views of other modules, so a
  // render is specialized to the view's type (no witness-table calls).
  @usableFromInline var renderCount = 0
  weak var window: ContextWindow?
  /// Position in the superview's subviews, or in the window's root views.
  var index = 0
  private var links: ViewLinks?

  /// Makes an empty attachment; `name` names the view in messages and in the component
  /// registry (the type's name if `nil`).
  public init(name: String? = nil) {
    if let name { links = ViewLinks(name: name) }
  }

  var name: String? { links?.name }

  /// Whether the side object was made.
  var hasLinks: Bool { links != nil }

  var superview: (any HeadlessView)? {
    get { links?.superview }
    set { setLink(\.superview, to: newValue) }
  }

  var subviews: ContiguousArray<any HeadlessView> {
    get { links?.subviews ?? [] }
    _modify { yield &madeLinks().subviews }
  }

  /// The first context the view linked to; the view keeps it.
  var context: Context? {
    get { links?.context }
    set { setLink(\.context, to: newValue) }
  }

  var component: ComponentToken? {
    get { links?.component }
    set { setLink(\.component, to: newValue) }
  }

  /// Sets one field of the side object, making it only for a value (clearing a field that
  /// was never set makes nothing).
  private mutating func setLink<Value>(
    _ field: ReferenceWritableKeyPath<ViewLinks, Value?>, to value: Value?
  ) {
    if value == nil && links == nil { return }
    madeLinks()[keyPath: field] = value
  }

  private mutating func madeLinks() -> ViewLinks {
    if let links { return links }
    let made = ViewLinks(name: nil)
    links = made
    return made
  }
}

/// The part of a view's attachment that only views in a tree or linked to a context use.
@MainActor
final class ViewLinks {
  let name: String?
  weak var superview: (any HeadlessView)?
  var subviews: ContiguousArray<any HeadlessView> = []
  var context: Context?
  var component: ComponentToken?

  init(name: String?) { self.name = name }
}
