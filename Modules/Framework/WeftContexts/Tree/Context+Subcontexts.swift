/// A context type that `createSubcontext(ofType:)` can make: it has an `init()`.
///
/// ```swift
/// final class ClassContext: Context, DefaultInitializableContext {
///   override init() {
///     super.init()
///     addObserver(.assessmentCategoryWeightChanged, calling: { [unowned self] in
///       self.validate($0)
///     }, expiresWith: self)
///   }
/// }
/// ```
///
/// - Note: Isolation: MainActor.
@MainActor
public protocol DefaultInitializableContext: Context {
  /// Makes a detached context; `createSubcontext(ofType:)` attaches it.
  init()
}

extension Context {
  /// Makes a plain context named `name` below this one.
  ///
  /// > Important: The new context is held weakly by this one and holds this one strongly:
  /// > keep it (keeping it keeps this context and its chain alive too).
  ///
  /// - Complexity: O(1) amortized.
  /// - Note: Allocations: the context object.
  public func createSubcontext(named name: String) -> Context {
    Context(named: name, in: self)
  }

  /// Makes a context of `type` below this one, named after the type unless `name` is given.
  ///
  /// ```swift
  /// let classContext = Context.global.createSubcontext(ofType: ClassContext.self)
  /// ```
  ///
  /// Contextuals that `type`'s `init()` adds stay on the new context; they become visible
  /// from below once it is attached, which happens before this returns. Like every
  /// subcontext, it is held weakly by this one and holds this one strongly: keep it.
  ///
  /// - Complexity: O(1) amortized, plus `init()`.
  /// - Note: Allocations: the context object.
  public func createSubcontext<T: DefaultInitializableContext>(
    ofType type: T.Type, named name: String? = nil
  ) -> T {
    let context = type.init()
    if let name { context.name = name }
    adopt(context)
    return context
  }

}
