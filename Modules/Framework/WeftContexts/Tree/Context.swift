import Foundation
import WeftCore
import WeftDependencies

/// A node of the context tree: a place where code asks for what it needs by name instead of
/// passing references around.
///
/// Every context comes from another one; `Context.global` is the root.
///
/// ```swift
/// let classContext = Context.global.createSubcontext(ofType: ClassContext.self)
/// let assignments = classContext.createSubcontext(named: "Assignments")
/// let exams = classContext.createSubcontext(named: "Exams")
///
/// assignments.addRequestable(.totalWeight, requesting: { [unowned self] in self.weight },
///                            ifAttached: self)
/// let total: Double? = assignments.request(.totalWeight)
/// ```
///
/// A context holds four kinds of *contextual*, each with an exact scope:
///
/// | contextual  | visible from                                   |
/// |-------------|------------------------------------------------|
/// | requestable | the context it was added to, and below it       |
/// | flag        | the context it was set on, and below it         |
/// | executable  | the context it was added to, and below it       |
/// | observer    | posts from its whole context-tree: at, below and above |
///
/// A lookup walks up from the asking context and takes the nearest one; a name that only
/// subcontexts provide is not visible, and is reported as ambiguous when two or more of
/// them provide it. See `request(_:)`. Requestables and executables are one per name per
/// context; observers are any number per name, each with its own expiry, and a post calls
/// every live one once, in the order added (see `post(name:object:userInfo:)`).
///
/// Lifetimes are ProContext's: a subcontext holds its **supercontext strongly**, and a
/// supercontext holds its **subcontexts weakly**. Keeping a leaf (a view keeps its context)
/// keeps its whole chain up to the root alive, so a tree never detaches silently; a
/// subcontext that nobody holds is released, with everything added to it.
///
/// > Important: Keep the leaves you create, not the inner nodes: an inner context does not
/// > keep its subcontexts. Do not store a subcontext in a strong property of one of its
/// > supercontexts (a context subclass keeping the subcontexts it creates): the subcontext
/// > holds that supercontext strongly, so the two would keep each other alive forever.
/// > Releasing a leaf releases its chain one level at a time, as far up as nothing else
/// > holds it.
///
/// # Performance
/// `request`, `execute` and `flagIsSet` cost one hash lookup per level walked up, O(d) for
/// a context d levels deep. `post` costs O(d + s), s = contexts below the poster that hold
/// or lie above an observer: subtrees without observers are skipped. What is slow: the
/// error paths (a missing or ambiguous name searches the whole subtree below the asker, to
/// say who provides it) and posting from near the root of a large tree with observers
/// spread all over it.
///
/// - Note: Isolation: MainActor, like every context and every closure it stores.
/// - Note: Allocations: one object per context, plus the weak-reference side table the
///   runtime makes for an object that is referenced weakly (each attached context: its
///   supercontext refers to it weakly); the contextual tables allocate on their first entry.
@MainActor
open class Context {
  /// The root of the context tree. Create the contexts of a feature from it.
  ///
  /// > Important: Contextuals added to `global` are visible from every context, and an
  /// > observer added to it hears every post. Add them to your own contexts instead.
  ///
  /// - Complexity: O(1).
  public static let global = Context(named: "global")

  /// The context's name, used in paths and messages (the type name for
  /// `createSubcontext(ofType:)`).
  ///
  /// - Complexity: O(1).
  public internal(set) var name: String

  /// The context this one was created from; `nil` for `global` and for detached roots.
  ///
  /// Held strongly: a context keeps its supercontext (and so its whole chain up to the
  /// root) alive, and once attached it stays attached for its whole life.
  ///
  /// - Complexity: O(1).
  public private(set) var supercontext: Context?

  var subcontextRefs: ContiguousArray<WeakContext> = []
  private var compactionThreshold = 8

  var requestables: [Requestable.Name: Contextual<RequestableBody>] = [:]
  var observers: [Notification.Name: [ObserverEntry]] = [:]
  /// Observers held by this context itself, over every name.
  var ownObserverCount = 0
  var executables: [Executable.Name: Contextual<() -> Void>] = [:]
  var flags: Set<Flag.Name> = []

  /// Observers here and below (an upper bound: released subcontexts are subtracted the next
  /// time a post walks past them).
  var observersInSubtree = 0

  weak var linkedView: (any HeadlessView)?
  weak var composer: Context?
  var component: ComponentToken?
  /// This node's dependency overrides (`overrideDependencies(_:)`), applied over the
  /// supercontext's.
  var dependencyOverrides: [(inout DependencyValues) -> Void] = []
  private var registryOverride: ComponentRegistry?  // nil: the supercontext's, else .shared

  /// How many times this context signalled `willChange` (see `signalWillChange()`).
  ///
  /// - Complexity: O(1).
  public private(set) var willChangeCount = 0

  /// Makes a detached context named after its type. Prefer `createSubcontext(ofType:)`,
  /// which calls this and attaches the result.
  ///
  /// - Complexity: O(1).
  public init() {
    self.name = ""
    self.name = String(describing: type(of: self))
  }

  /// Makes a context named `name` and attaches it below `supercontext` (pass `nil` for a
  /// detached root; prefer `createSubcontext(named:)`). The new context holds
  /// `supercontext` strongly; `supercontext` holds it weakly.
  ///
  /// - Complexity: O(1) amortized.
  public init(named name: String, in supercontext: Context? = nil) {
    self.name = name
    supercontext?.adopt(self)
  }

  /// Makes a context named `name`, or after its type, attached below `supercontext`.
  init(optionalName name: String?, in supercontext: Context?) {
    self.name = ""
    self.name = name ?? String(describing: type(of: self))
    supercontext?.adopt(self)
  }

  /// The names from the root down to this context, joined by `/`
  /// (`global/Class/Assignments`). Messages name contexts by their path.
  ///
  /// - Complexity: O(d), d = depth.
  public var path: String {
    var names = [name]
    var next = supercontext
    while let context = next {
      names.append(context.name)
      next = context.supercontext
    }
    return names.reversed().joined(separator: "/")
  }

  /// The live subcontexts, in creation order.
  ///
  /// - Complexity: O(c), c = subcontexts created here and not yet compacted away.
  public var subcontexts: [Context] { subcontextRefs.compactMap(\.context) }

  /// The registry this context and its views report to: the one set here, else the
  /// supercontext's, else `ComponentRegistry.shared`. Set it before linking views.
  ///
  /// - Complexity: O(d) to read, d = depth; O(1) to set.
  public var componentRegistry: ComponentRegistry {
    get { registryOverride ?? supercontext?.componentRegistry ?? .shared }
    set { registryOverride = newValue }
  }

  /// The context's registration, made on first need (a view link or a composition).
  var componentID: ComponentID {
    if let component { return component.id }
    let token = ComponentToken(.context, name: path, in: componentRegistry)
    component = token
    return token.id
  }

  /// Attaches a detached `child` below this context: the child holds this context
  /// strongly, this context holds the child weakly.
  func adopt(_ child: Context) {
    precondition(
      child.supercontext == nil && child !== Context.global,
      "context '\(child.path)' already has a supercontext")
    child.supercontext = self
    subcontextRefs.append(WeakContext(child))
    if subcontextRefs.count >= compactionThreshold {
      subcontextRefs.removeAll { $0.context == nil }
      compactionThreshold = max(8, subcontextRefs.count * 2)
    }
    if child.observersInSubtree > 0 { adjustObserverCount(by: child.observersInSubtree) }
  }

  /// Adds `delta` to the observer count here and on every supercontext.
  func adjustObserverCount(by delta: Int) {
    var next: Context? = self
    while let context = next {
      context.observersInSubtree += delta
      next = context.supercontext
    }
  }

  /// Tells the view linked to this context (and the context that composes this one) that
  /// the state it renders changed. `ClientContext` calls it when a declared dependency
  /// changes; call it yourself for state of your own.
  ///
  /// - Complexity: O(r), r = the cost of the view's re-render.
  /// - Note: Isolation: MainActor; the view re-renders before this returns.
  public func signalWillChange() {
    willChangeCount += 1
    linkedView?.receiveWillChange(from: self)
    composer?.signalWillChange()
  }
}
