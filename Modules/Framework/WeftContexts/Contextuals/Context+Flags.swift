/// Flags: named booleans visible at and below the context they were set on.
extension Context {
  /// Sets flag `name` on this context; it reads as set here and below.
  ///
  /// ```swift
  /// context.setFlag(.totalFieldSetByUser)
  /// ```
  ///
  /// > Important: Setting a flag that is already set as seen from here (on this context or
  /// > a supercontext) is a logic error and traps; `trySetFlag` throws instead.
  ///
  /// - Complexity: O(d) expected, d = depth.
  /// - Note: Isolation: MainActor.
  /// - Note: Allocations: the flag set on its first flag.
  public func setFlag(_ name: Flag.Name) {
    trapOnError { () throws(ContextError) in try trySetFlag(name) }
  }

  /// Throwing twin of `setFlag(_:)`.
  ///
  /// - Throws: `ContextError.flagAlreadySet`, naming where it is set.
  /// - Complexity: O(d) expected, d = depth.
  public func trySetFlag(_ name: Flag.Name) throws(ContextError) {
    if let (owner, _) = nearest({ $0.flags.contains(name) ? () : nil }) {
      throw .flagAlreadySet(name: name.rawValue, context: path, setOn: owner.path)
    }
    flags.insert(name)
  }

  /// Unsets flag `name` where it is set: on this context, or else on the nearest
  /// supercontext that set it.
  ///
  /// > Important: Unsetting a flag that is not set as seen from here traps;
  /// > `tryUnsetFlag` throws instead.
  ///
  /// - Complexity: O(d) expected, d = depth; the error path also walks the subtree.
  /// - Note: Isolation: MainActor.
  public func unsetFlag(_ name: Flag.Name) {
    trapOnError { () throws(ContextError) in try tryUnsetFlag(name) }
  }

  /// Throwing twin of `unsetFlag(_:)`.
  ///
  /// - Throws: `ContextError.flagNotSet`, listing the subcontexts that set it, if any.
  /// - Complexity: O(d) expected, d = depth; the error path also walks the subtree.
  public func tryUnsetFlag(_ name: Flag.Name) throws(ContextError) {
    guard let (owner, _) = nearest({ $0.flags.contains(name) ? () : nil }) else {
      let below = providersBelow { $0.flags.contains(name) }
      throw .flagNotSet(name: name.rawValue, context: path, setBelow: below.map(\.path))
    }
    owner.flags.remove(name)
  }

  /// Whether flag `name` is set on this context or a supercontext.
  ///
  /// - Complexity: O(d) expected, d = depth.
  /// - Note: Isolation: MainActor.
  public func flagIsSet(_ name: Flag.Name) -> Bool {
    nearest({ $0.flags.contains(name) ? () : nil }) != nil
  }
}
