/// A view without a screen: a class that renders its context's state to a value, attaches
/// to a `ContextWindow`, and re-renders when its context signals `willChange`.
///
/// ```swift
/// final class GreetingView: HeadlessView {
///   var attachment = ViewAttachment(name: "Greeting")
///   let context: ProfileContext
///   private(set) var text = ""
///
///   init(context: ProfileContext) {
///     self.context = context
///     link(to: context)                 // the 1:1 view↔context link
///   }
///
///   func render() -> String { "Hello, \(context.state.name)" }
///   func didRender(_ rendering: String) { text = rendering }
/// }
///
/// let window = ContextWindow()
/// window.attach(view)                  // renders once
/// ```
///
/// A view keeps its context (and through `attachment`, its subviews); a context and a
/// window's views keep their view only as long as the window or superview does.
///
/// # Performance
/// A view costs its own object plus `ViewAttachment` (32 bytes stored inline, no dictionary,
/// no task; a name, a tree or a context adds one side object); linking it to a context adds
/// one small registry token. A render touches only the view (its window's count is summed
/// when read). Attaching
/// and detaching are O(1) amortized plus one render per newly attached view in the
/// subtree. A signal from the context costs one `render()`; a detached view skips it.
///
/// - Note: Isolation: MainActor.
/// - Note: Allocations: none per render beyond `render()`'s own.
@MainActor
public protocol HeadlessView: AnyObject {
  /// What `render()` produces (a string, a tree of values, ...).
  associatedtype Rendering

  /// The view's place in the hierarchy and its context link. Declare it
  /// `var attachment = ViewAttachment()` and leave it to the framework.
  var attachment: ViewAttachment { get set }

  /// Renders the context's current state.
  func render() -> Rendering

  /// Receives each rendering; the default does nothing. Keep it if you need it.
  func didRender(_ rendering: Rendering)

  /// Called when a linked context signals `willChange`; the default re-renders the view if
  /// it is attached to a window, and does nothing otherwise.
  func contextWillChange(_ context: Context)
}

extension HeadlessView {
  public func didRender(_ rendering: Rendering) {}

  public func contextWillChange(_ context: Context) {
    if isAttached { renderNow() }
  }

  /// Renders now: calls `render()`, counts it, and hands the result to `didRender(_:)`.
  ///
  /// - Complexity: O(r), r = the cost of `render()`.
  @inlinable @discardableResult
  public func renderNow() -> Rendering {
    let rendering = render()
    attachment.renderCount += 1
    didRender(rendering)
    return rendering
  }

  /// How many times the view rendered.
  ///
  /// - Complexity: O(1).
  @inlinable public var renderCount: Int { attachment.renderCount }

  /// The name given to `ViewAttachment(name:)`, else the type's name.
  ///
  /// - Complexity: O(1) with a name; O(n) to describe the type otherwise.
  public var viewName: String { attachment.name ?? String(describing: Self.self) }

  func receiveWillChange(from context: Context) { contextWillChange(context) }
}
