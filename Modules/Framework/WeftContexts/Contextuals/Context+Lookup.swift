/// The lookup rule shared by requestables, executables and flags.
///
/// From an asking context A, a name is *visible* if A or one of A's supercontexts holds an
/// unexpired contextual under it; the nearest one wins (A first, then its supercontext, up
/// to the root), so a name provided above is never ambiguous. Contextuals held by
/// subcontexts of A are never visible from A. When nothing is visible, the subtree below A
/// is searched only to explain the failure: two or more providers (the shallowest of each
/// branch) make it `ambiguous`, one makes it `onlyBelow`, none `notFound`.
extension Context {
  /// The nearest context, from this one up to the root, for which `find` returns a value.
  func nearest<Found>(_ find: (Context) -> Found?) -> (Context, Found)? {
    var next: Context? = self
    while let context = next {
      if let found = find(context) { return (context, found) }
      next = context.supercontext
    }
    return nil
  }

  /// The shallowest contexts strictly below this one for which `provides` holds, one per
  /// branch, depth-first in creation order.
  func providersBelow(_ provides: (Context) -> Bool) -> [Context] {
    var found: [Context] = []
    func visit(_ context: Context) {
      for reference in context.subcontextRefs {
        guard let child = reference.context else { continue }
        if provides(child) { found.append(child) } else { visit(child) }
      }
    }
    visit(self)
    return found
  }

  /// The error for a name that is not visible from this context.
  func missing(
    _ kind: ContextualKind, name: String, provides: (Context) -> Bool
  ) -> ContextError {
    let providers = providersBelow(provides)
    switch providers.count {
    case 0: return .notFound(kind, name: name, context: path)
    case 1: return .onlyBelow(kind, name: name, context: path, provider: providers[0].path)
    default: return .ambiguous(kind, name: name, context: path, providers: providers.map(\.path))
    }
  }

  /// This context's own unexpired requestable `name`, removing it if it expired.
  func liveRequestable(_ name: Requestable.Name) -> Contextual<RequestableBody>? {
    guard let entry = requestables[name] else { return nil }
    if entry.rules.isExpired {
      requestables[name] = nil
      return nil
    }
    return entry
  }

  /// This context's own unexpired executable `name`, removing it if it expired.
  func liveExecutable(_ name: Executable.Name) -> Contextual<() -> Void>? {
    guard let entry = executables[name] else { return nil }
    if entry.rules.isExpired {
      executables[name] = nil
      return nil
    }
    return entry
  }
}
