/// Requestables: values a context answers by name, visible at and below it.
extension Context {
  /// Adds a requestable: `requesting` answers `request(name)` from this context and every
  /// context below it.
  ///
  /// ```swift
  /// context.addRequestable(.totalWeight,
  ///                        requesting: { [unowned self] in self.weight },
  ///                        if: { [unowned self] in self.isEditable },
  ///                        expiresIf: { [weak self] in self == nil })
  /// ```
  ///
  /// > Important: Adding a name this context already holds replaces the old requestable if
  /// > it expired, and traps otherwise (`tryAddRequestable` throws instead).
  ///
  /// - Parameters:
  ///   - name: the name to answer to.
  ///   - requesting: computes the value on each request.
  ///   - condition: must hold when requested, or the request traps.
  ///   - expiry: once it returns true the requestable is gone (and may be replaced).
  /// - Complexity: O(1) expected.
  /// - Note: Isolation: MainActor; the closures run on the MainActor.
  /// - Note: Allocations: the closures' contexts; the table on its first entry.
  public func addRequestable<Value>(
    _ name: Requestable.Name, requesting: @escaping () -> Value,
    if condition: (() -> Bool)? = nil, expiresIf expiry: (() -> Bool)? = nil
  ) {
    trapOnError { () throws(ContextError) in
      try tryAddRequestable(name, requesting: requesting, if: condition, expiresIf: expiry)
    }
  }

  /// Adds a requestable that expires when `object` is released (held weakly).
  ///
  /// - Complexity: O(1) expected.
  public func addRequestable<Value>(
    _ name: Requestable.Name, requesting: @escaping () -> Value,
    if condition: (() -> Bool)? = nil, expiresWith object: AnyObject
  ) {
    trapOnError { () throws(ContextError) in
      try tryAddRequestable(name, requesting: requesting, if: condition, expiresWith: object)
    }
  }

  /// Adds a requestable valid while `view` is attached to a window (requesting it while
  /// the view is detached traps) and expired once `view` is released — the headless
  /// counterpart of `ifInWindow:`.
  ///
  /// - Complexity: O(1) expected.
  public func addRequestable<Value>(
    _ name: Requestable.Name, requesting: @escaping () -> Value,
    ifAttached view: any HeadlessView
  ) {
    trapOnError { () throws(ContextError) in
      try tryAddRequestable(name, requesting: requesting, ifAttached: view)
    }
  }

  /// Throwing twin of `addRequestable(_:requesting:if:expiresIf:)`.
  ///
  /// - Throws: `ContextError.nameTaken` if this context holds an unexpired requestable
  ///   named `name`.
  /// - Complexity: O(1) expected.
  public func tryAddRequestable<Value>(
    _ name: Requestable.Name, requesting: @escaping () -> Value,
    if condition: (() -> Bool)? = nil, expiresIf expiry: (() -> Bool)? = nil
  ) throws(ContextError) {
    try install(name, requesting, Rules(if: condition, expiresIf: expiry))
  }

  /// Throwing twin of `addRequestable(_:requesting:if:expiresWith:)`.
  ///
  /// - Complexity: O(1) expected.
  public func tryAddRequestable<Value>(
    _ name: Requestable.Name, requesting: @escaping () -> Value,
    if condition: (() -> Bool)? = nil, expiresWith object: AnyObject
  ) throws(ContextError) {
    try install(name, requesting, Rules(if: condition, expiresWith: object))
  }

  /// Throwing twin of `addRequestable(_:requesting:ifAttached:)`.
  ///
  /// - Complexity: O(1) expected.
  public func tryAddRequestable<Value>(
    _ name: Requestable.Name, requesting: @escaping () -> Value,
    ifAttached view: any HeadlessView
  ) throws(ContextError) {
    try install(name, requesting, Rules(ifAttached: view))
  }

  private func install<Value>(
    _ name: Requestable.Name, _ requesting: @escaping () -> Value, _ rules: Rules
  ) throws(ContextError) {
    if liveRequestable(name) != nil {
      throw .nameTaken(.requestable, name: name.rawValue, context: path)
    }
    requestables[name] = Contextual(
      body: RequestableBody(provide: { requesting() }, valueType: Value.self), rules: rules)
  }

  /// Removes this context's requestable `name`, if any. Returns whether there was one.
  ///
  /// - Complexity: O(1) expected.
  @discardableResult
  public func removeRequestable(_ name: Requestable.Name) -> Bool {
    requestables.removeValue(forKey: name) != nil
  }

  /// The value of the nearest requestable named `name`, from this context up to the root,
  /// typed by the caller.
  ///
  /// ```swift
  /// let percentsIsSelected: Bool = assignments.request(.percentsIsSelected)
  /// ```
  ///
  /// > Important: Traps, naming this context's path and `name`, when nothing visible
  /// > provides `name` (including a name only subcontexts provide: ambiguous if two or more
  /// > do), when its condition does not hold, or when it provides another type.
  /// > `tryRequest(_:as:)` throws the same error instead.
  ///
  /// - Complexity: O(d) expected, d = levels walked up; the error path also walks the
  ///   subtree below this context.
  /// - Note: Isolation: MainActor; the provider runs here, synchronously.
  /// - Note: Allocations: none beyond the provider's own, for values of up to three words.
  public func request<Value>(_ name: Requestable.Name, as type: Value.Type = Value.self) -> Value {
    trapOnError { () throws(ContextError) in try tryRequest(name, as: type) }
  }

  /// Throwing twin of `request(_:as:)`.
  ///
  /// - Throws: `ContextError.notFound`, `.onlyBelow`, `.ambiguous`, `.conditionFailed` or
  ///   `.typeMismatch`.
  /// - Complexity: O(d) expected, d = levels walked up; the error path also walks the
  ///   subtree below this context.
  public func tryRequest<Value>(
    _ name: Requestable.Name, as type: Value.Type = Value.self
  ) throws(ContextError) -> Value {
    guard let (owner, entry) = nearest({ $0.liveRequestable(name) }) else {
      throw missing(.requestable, name: name.rawValue) { $0.liveRequestable(name) != nil }
    }
    guard entry.rules.conditionHolds else {
      throw .conditionFailed(
        .requestable, name: name.rawValue, context: path, addedOn: owner.path,
        condition: entry.rules.conditionDescription)
    }
    guard let value = entry.body.provide() as? Value else {
      throw .typeMismatch(
        name: name.rawValue, context: path, addedOn: owner.path,
        provides: String(describing: entry.body.valueType),
        requested: String(describing: Value.self))
    }
    return value
  }

  /// Whether `request(name)` would find a requestable whose condition holds.
  ///
  /// - Complexity: O(d) expected, d = levels walked up.
  public func isRequestable(_ name: Requestable.Name) -> Bool {
    guard let (_, entry) = nearest({ $0.liveRequestable(name) }) else { return false }
    return entry.rules.conditionHolds
  }
}

/// Runs `body`; on a `ContextError` stops the program with its description (the trap of
/// every trapping call, with the same text as its throwing twin).
func trapOnError<Result>(_ body: () throws(ContextError) -> Result) -> Result {
  do {
    return try body()
  } catch {
    preconditionFailure(error.description)
  }
}
