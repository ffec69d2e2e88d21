import WeftCore

/// A headless view's bookkeeping, stored inline in the view: its window, superview,
/// subviews, its linked context and its render count.
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
/// - Complexity: O(1) to make.
/// - Note: Isolation: MainActor.
/// - Note: Allocations: none to make; the subview array on the first subview.
@MainActor
public struct ViewAttachment {
  let name: String?
  weak var window: ContextWindow?
  weak var superview: (any HeadlessView)?
  var subviews: ContiguousArray<any HeadlessView> = []
  /// Position in the superview's subviews, or in the window's root views.
  var index = 0
  /// The first context the view linked to; the view keeps it.
  var context: Context?
  var component: ComponentToken?
  var renderCount = 0

  /// Makes an empty attachment; `name` names the view in messages and in the component
  /// registry (the type's name if `nil`).
  public init(name: String? = nil) { self.name = name }
}
