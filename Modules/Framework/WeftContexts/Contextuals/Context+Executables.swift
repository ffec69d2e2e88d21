/// Executables: functions a context runs by name, visible at and below it.
extension Context {
  /// Adds an executable: `executing` runs for `execute(name)` on this context and every
  /// context below it.
  ///
  /// ```swift
  /// addExecutable(.swapWeightInputViews,
  ///               executing: { [unowned self] in self.swapWeightInputViews() },
  ///               expiresWith: self)
  /// ```
  ///
  /// > Important: Adding a name this context already holds replaces the old executable if
  /// > it expired, and traps otherwise (`tryAddExecutable` throws instead).
  ///
  /// - Complexity: O(1) expected.
  /// - Note: Isolation: MainActor; `executing` runs on the MainActor.
  /// - Note: Allocations: the closures' contexts; the table on its first entry.
  public func addExecutable(
    _ name: Executable.Name, executing: @escaping () -> Void,
    if condition: (() -> Bool)? = nil, expiresWith object: AnyObject
  ) {
    trapOnError { () throws(ContextError) in
      try tryAddExecutable(name, executing: executing, if: condition, expiresWith: object)
    }
  }

  /// Adds an executable that expires once `expiry` returns true (or never, without one).
  ///
  /// - Complexity: O(1) expected.
  public func addExecutable(
    _ name: Executable.Name, executing: @escaping () -> Void,
    if condition: (() -> Bool)? = nil, expiresIf expiry: (() -> Bool)? = nil
  ) {
    trapOnError { () throws(ContextError) in
      try tryAddExecutable(name, executing: executing, if: condition, expiresIf: expiry)
    }
  }

  /// Adds an executable valid while `view` is attached to a window and expired once
  /// `view` is released.
  ///
  /// - Complexity: O(1) expected.
  public func addExecutable(
    _ name: Executable.Name, executing: @escaping () -> Void,
    ifAttached view: any HeadlessView
  ) {
    trapOnError { () throws(ContextError) in
      try tryAddExecutable(name, executing: executing, ifAttached: view)
    }
  }

  /// Throwing twin of `addExecutable(_:executing:if:expiresWith:)`.
  ///
  /// - Throws: `ContextError.nameTaken` if this context holds an unexpired executable named
  ///   `name`.
  /// - Complexity: O(1) expected.
  public func tryAddExecutable(
    _ name: Executable.Name, executing: @escaping () -> Void,
    if condition: (() -> Bool)? = nil, expiresWith object: AnyObject
  ) throws(ContextError) {
    try install(name, executing, Rules(if: condition, expiresWith: object))
  }

  /// Throwing twin of `addExecutable(_:executing:if:expiresIf:)`.
  ///
  /// - Complexity: O(1) expected.
  public func tryAddExecutable(
    _ name: Executable.Name, executing: @escaping () -> Void,
    if condition: (() -> Bool)? = nil, expiresIf expiry: (() -> Bool)? = nil
  ) throws(ContextError) {
    try install(name, executing, Rules(if: condition, expiresIf: expiry))
  }

  /// Throwing twin of `addExecutable(_:executing:ifAttached:)`.
  ///
  /// - Complexity: O(1) expected.
  public func tryAddExecutable(
    _ name: Executable.Name, executing: @escaping () -> Void,
    ifAttached view: any HeadlessView
  ) throws(ContextError) {
    try install(name, executing, Rules(ifAttached: view))
  }

  private func install(
    _ name: Executable.Name, _ executing: @escaping () -> Void, _ rules: Rules
  ) throws(ContextError) {
    if liveExecutable(name) != nil {
      throw .nameTaken(.executable, name: name.rawValue, context: path)
    }
    executables[name] = Contextual(body: executing, rules: rules)
  }

  /// Removes this context's executable `name`, if any. Returns whether there was one.
  ///
  /// - Complexity: O(1) expected.
  @discardableResult
  public func removeExecutable(_ name: Executable.Name) -> Bool {
    executables.removeValue(forKey: name) != nil
  }

  /// Runs the nearest executable named `name`, from this context up to the root.
  ///
  /// ```swift
  /// assignmentsContext.execute(.swapWeightInputViews)
  /// ```
  ///
  /// > Important: Traps, naming this context's path and `name`, when nothing visible
  /// > provides `name` (ambiguous if two or more subcontexts do) or when its condition does
  /// > not hold; `tryExecute` throws the same error instead.
  ///
  /// - Complexity: O(d) expected, d = levels walked up; the error path also walks the
  ///   subtree below this context.
  /// - Note: Isolation: MainActor; the executable runs here, synchronously.
  public func execute(_ name: Executable.Name) {
    trapOnError { () throws(ContextError) in try tryExecute(name) }
  }

  /// Throwing twin of `execute(_:)`.
  ///
  /// - Throws: `ContextError.notFound`, `.onlyBelow`, `.ambiguous` or `.conditionFailed`.
  /// - Complexity: O(d) expected, d = levels walked up; the error path also walks the
  ///   subtree below this context.
  public func tryExecute(_ name: Executable.Name) throws(ContextError) {
    guard let (owner, entry) = nearest({ $0.liveExecutable(name) }) else {
      throw missing(.executable, name: name.rawValue) { $0.liveExecutable(name) != nil }
    }
    guard entry.rules.conditionHolds else {
      throw .conditionFailed(
        .executable, name: name.rawValue, context: path, addedOn: owner.path,
        condition: entry.rules.conditionDescription)
    }
    entry.body()
  }

  /// Whether `execute(name)` would find an executable whose condition holds.
  ///
  /// - Complexity: O(d) expected, d = levels walked up.
  public func isExecutable(_ name: Executable.Name) -> Bool {
    guard let (_, entry) = nearest({ $0.liveExecutable(name) }) else { return false }
    return entry.rules.conditionHolds
  }
}
