/// A logic error in the use of a context: what happened, on which context path, and how to
/// fix it.
///
/// Every trapping call (`request`, `execute`, `setFlag`, `unsetFlag`, `addRequestable`, ...)
/// stops with exactly this `description`; its throwing twin (`tryRequest`, `tryExecute`,
/// `trySetFlag`, `tryUnsetFlag`, `tryAddRequestable`, ...) throws the same value instead, for
/// callers that must survive misuse (the simulator reports a misused flow step as a failed
/// step).
///
/// ```swift
/// do {
///   let total: Double? = try classContext.tryRequest(.totalWeight)
/// } catch {
///   print(error)   // requestable 'total-weight' is ambiguous from context 'global/Class': ...
/// }
/// ```
///
/// - Note: Isolation: a `Sendable` value; paths and names are copied in as strings.
public enum ContextError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Nothing of that name is visible from `context`, and nothing below provides it either.
  case notFound(ContextualKind, name: String, context: String)
  /// Nothing of that name is visible from `context`; two or more subcontexts below provide
  /// one (the shallowest provider of each branch is listed, in creation order).
  case ambiguous(ContextualKind, name: String, context: String, providers: [String])
  /// Nothing of that name is visible from `context`; exactly one subcontext below provides
  /// it, and a contextual is visible only at and below the context it was added to.
  case onlyBelow(ContextualKind, name: String, context: String, provider: String)
  /// The nearest contextual of that name (added on `addedOn`) has a condition (`if:` or
  /// `ifAttached:`) that does not hold.
  case conditionFailed(
    ContextualKind, name: String, context: String, addedOn: String, condition: String)
  /// The requestable provides a value of another type than the one requested.
  case typeMismatch(
    name: String, context: String, addedOn: String, provides: String, requested: String)
  /// `context` already holds an unexpired requestable or executable of that name (they are
  /// one per name per context; observers are many per name and never raise this).
  case nameTaken(ContextualKind, name: String, context: String)
  /// The flag is already set, on `setOn` (the context itself or a supercontext).
  case flagAlreadySet(name: String, context: String, setOn: String)
  /// The flag is not set at or above `context`; `setBelow` lists subcontexts that set it.
  case flagNotSet(name: String, context: String, setBelow: [String])
  /// `context` already has another view linked; a context serves exactly one view.
  case contextHasAnotherView(context: String, view: String, linkedView: String)
  /// Adding `subview` under `view` would put a view inside itself.
  case viewCycle(view: String, subview: String)

  public var description: String {
    switch self {
    case .notFound(let kind, let name, let context):
      "no \(kind) '\(name)' is visible from context '\(context)': none was added there or on "
        + "a supercontext, and none below. Add it with \(kind.adder) on '\(context)' or a "
        + "supercontext."
    case .ambiguous(let kind, let name, let context, let providers):
      "\(kind) '\(name)' is ambiguous from context '\(context)': it is provided below by "
        + Self.list(providers)
        + ", and \(kind.withArticle) is visible only at and below the context "
        + "it was added to. \(kind.user.capitalizedFirst) it from one of those contexts, or add "
        + "one on '\(context)' or a supercontext."
    case .onlyBelow(let kind, let name, let context, let provider):
      "no \(kind) '\(name)' is visible from context '\(context)': it is provided only below, "
        + "by '\(provider)', and \(kind.withArticle) is visible only at and below the context it was "
        + "added to. \(kind.user.capitalizedFirst) it from '\(provider)', or add one on "
        + "'\(context)' or a supercontext."
    case .conditionFailed(let kind, let name, let context, let addedOn, let condition):
      "\(kind) '\(name)' (added on '\(addedOn)') was used from context '\(context)' while "
        + "\(condition) does not hold. Check \(kind.checkAndTwin), or add the \(kind) without "
        + "a condition."
    case .typeMismatch(let name, let context, let addedOn, let provides, let requested):
      "requestable '\(name)' (added on '\(addedOn)') provides \(provides), but context "
        + "'\(context)' requested it as \(requested). Request it as \(provides)."
    case .nameTaken(let kind, let name, let context):
      "context '\(context)' already has \(kind.withArticle) '\(name)' that has not expired. Give the "
        + "new one another name, remove the old one first, or add the old one with an expiry "
        + "(expiresIf:, expiresWith: or ifAttached:) so that it is replaced once it expires."
    case .flagAlreadySet(let name, let context, let setOn):
      "flag '\(name)' is already set (on '\(setOn)') as seen from context '\(context)'; "
        + "setting a set flag is a logic error. Check flagIsSet(_:) first, or call "
        + "trySetFlag(_:)."
    case .flagNotSet(let name, let context, let setBelow):
      "flag '\(name)' is not set on context '\(context)' or a supercontext; unsetting an "
        + "unset flag is a logic error."
        + (setBelow.isEmpty
          ? ""
          : " It is set below, on " + Self.list(setBelow)
            + ", and a flag is visible only at and below the context it was set on.")
        + " Check flagIsSet(_:) first, or call tryUnsetFlag(_:)."
    case .contextHasAnotherView(let context, let view, let linkedView):
      "view '\(view)' cannot link to context '\(context)': the context already serves view "
        + "'\(linkedView)', and a context serves exactly one view. Give '\(view)' its own "
        + "context, or unlink '\(linkedView)' first."
    case .viewCycle(let view, let subview):
      "view '\(subview)' cannot be added under view '\(view)': '\(view)' is '\(subview)' or "
        + "lies inside it, and a view cannot contain itself. Add it under another view."
    }
  }

  private static func list(_ paths: [String]) -> String {
    let quoted = paths.map { "'\($0)'" }
    guard quoted.count > 1 else { return quoted.first ?? "" }
    return quoted.dropLast().joined(separator: ", ") + " and " + quoted.last!
  }
}

extension String {
  fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
