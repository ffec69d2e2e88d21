/// A weak reference to any object (for `expiresWith:`).
struct WeakObject {
  weak var object: AnyObject?

  init(_ object: AnyObject) { self.object = object }
}

/// A weak reference to a headless view, with its name for messages (for `ifAttached:`).
@MainActor
struct WeakView {
  weak var view: (any HeadlessView)?
  let name: String

  init(_ view: any HeadlessView) {
    self.view = view
    self.name = view.viewName
  }
}

/// A weak reference to a context (a supercontext holds its subcontexts this way, so that
/// the strong subcontext → supercontext link never forms a cycle).
@MainActor
struct WeakContext {
  weak var context: Context?

  init(_ context: Context) { self.context = context }
}
