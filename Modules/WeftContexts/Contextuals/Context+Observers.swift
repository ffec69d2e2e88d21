import Foundation

/// Observers: callbacks reached by posts from anywhere in their context-tree.
extension Context {
  /// Adds an observer: `calling` runs for every `post(name:object:)` made on this context,
  /// on any context below it, or on any context above it (its *context-tree*).
  ///
  /// ```swift
  /// addObserver(.assessmentCategoryWeightChanged,
  ///             calling: { [unowned self] in self.validateWeightSum($0) },
  ///             expiresWith: self)
  /// ```
  ///
  /// A context holds one observer per name. While `condition` does not hold, posts skip
  /// the observer (no trap: a post is not a request).
  ///
  /// > Important: Adding a name this context already observes replaces the old observer if
  /// > it expired, and traps otherwise (`tryAddObserver` throws instead).
  ///
  /// - Complexity: O(d) amortized, d = depth (the supercontexts' observer counts are kept
  ///   so that posts skip subtrees without observers).
  /// - Note: Isolation: MainActor; `calling` runs on the MainActor, inside `post`.
  /// - Note: Allocations: the closures' contexts; the table on its first entry.
  public func addObserver(
    _ name: Notification.Name, calling: @escaping (Notification) -> Void,
    if condition: (() -> Bool)? = nil, expiresIf expiry: (() -> Bool)? = nil
  ) {
    trapOnError { () throws(ContextError) in
      try tryAddObserver(name, calling: calling, if: condition, expiresIf: expiry)
    }
  }

  /// Adds an observer that expires when `object` is released (held weakly).
  ///
  /// - Complexity: O(d) amortized, d = depth.
  public func addObserver(
    _ name: Notification.Name, calling: @escaping (Notification) -> Void,
    if condition: (() -> Bool)? = nil, expiresWith object: AnyObject
  ) {
    trapOnError { () throws(ContextError) in
      try tryAddObserver(name, calling: calling, if: condition, expiresWith: object)
    }
  }

  /// Adds an observer called only while `view` is attached to a window, and expired once
  /// `view` is released.
  ///
  /// - Complexity: O(d) amortized, d = depth.
  public func addObserver(
    _ name: Notification.Name, calling: @escaping (Notification) -> Void,
    ifAttached view: any HeadlessView
  ) {
    trapOnError { () throws(ContextError) in
      try tryAddObserver(name, calling: calling, ifAttached: view)
    }
  }

  /// Throwing twin of `addObserver(_:calling:if:expiresIf:)`.
  ///
  /// - Throws: `ContextError.nameTaken` if this context holds an unexpired observer of
  ///   `name`.
  /// - Complexity: O(d) amortized, d = depth.
  public func tryAddObserver(
    _ name: Notification.Name, calling: @escaping (Notification) -> Void,
    if condition: (() -> Bool)? = nil, expiresIf expiry: (() -> Bool)? = nil
  ) throws(ContextError) {
    try install(name, calling, Rules(if: condition, expiresIf: expiry))
  }

  /// Throwing twin of `addObserver(_:calling:if:expiresWith:)`.
  ///
  /// - Complexity: O(d) amortized, d = depth.
  public func tryAddObserver(
    _ name: Notification.Name, calling: @escaping (Notification) -> Void,
    if condition: (() -> Bool)? = nil, expiresWith object: AnyObject
  ) throws(ContextError) {
    try install(name, calling, Rules(if: condition, expiresWith: object))
  }

  /// Throwing twin of `addObserver(_:calling:ifAttached:)`.
  ///
  /// - Complexity: O(d) amortized, d = depth.
  public func tryAddObserver(
    _ name: Notification.Name, calling: @escaping (Notification) -> Void,
    ifAttached view: any HeadlessView
  ) throws(ContextError) {
    try install(name, calling, Rules(ifAttached: view))
  }

  private func install(
    _ name: Notification.Name, _ calling: @escaping (Notification) -> Void, _ rules: Rules
  ) throws(ContextError) {
    if let old = observers[name] {
      guard old.rules.isExpired else {
        throw .nameTaken(.observer, name: name.rawValue, context: path)
      }
      observers[name] = Contextual(body: calling, rules: rules)
    } else {
      observers[name] = Contextual(body: calling, rules: rules)
      adjustObserverCount(by: 1)
    }
  }

  /// Removes this context's observer of `name`, if any. Returns whether there was one.
  ///
  /// - Complexity: O(d), d = depth.
  @discardableResult
  public func removeObserver(_ name: Notification.Name) -> Bool {
    guard observers.removeValue(forKey: name) != nil else { return false }
    adjustObserverCount(by: -1)
    return true
  }

  /// Posts a notification to every observer of `name` in this context's context-tree:
  /// this context, its supercontexts, and its subcontexts at any depth.
  ///
  /// ```swift
  /// context.post(name: .assessmentCategoryWeightChanged, object: weight)
  /// ```
  ///
  /// Observers are called in this order: this context's, then its supercontexts' from the
  /// nearest to the root, then its subcontexts' depth-first in creation order. Sibling and
  /// cousin contexts are not in the context-tree and hear nothing. Observers added during
  /// the post are not called by it; an observer that expires, or whose condition stops
  /// holding, before its turn is skipped.
  ///
  /// - Complexity: O(d + s), d = depth, s = contexts below this one on a path to an
  ///   observer (subtrees without observers are skipped).
  /// - Note: Isolation: MainActor; the observers run inside this call.
  /// - Note: Allocations: the `Notification`; an array of the observers found, if any.
  public func post(
    name: Notification.Name, object: Any? = nil, userInfo: [AnyHashable: Any]? = nil
  ) {
    var found: [Contextual<(Notification) -> Void>] = []
    var next: Context? = self
    while let context = next {
      context.collect(name, into: &found)
      next = context.supercontext
    }
    let before = observersInSubtree
    var counted = observers.count
    for reference in subcontextRefs {
      guard let child = reference.context, child.observersInSubtree > 0 else { continue }
      counted += child.collectSubtree(name, into: &found)
    }
    if counted != before { adjustObserverCount(by: counted - before) }
    guard !found.isEmpty else { return }
    let notification = Notification(name: name, object: object, userInfo: userInfo)
    for observer in found where !observer.rules.isExpired && observer.rules.conditionHolds {
      observer.body(notification)
    }
  }

  /// Appends this context's own live observer of `name`, removing it if it expired.
  private func collect(
    _ name: Notification.Name, into found: inout [Contextual<(Notification) -> Void>]
  ) {
    guard let entry = observers[name] else { return }
    if entry.rules.isExpired {
      observers[name] = nil
      adjustObserverCount(by: -1)
    } else {
      found.append(entry)
    }
  }

  /// Collects observers of `name` here and below; returns, and stores, the exact number of
  /// observers in this subtree (which heals counts left high by released subcontexts).
  private func collectSubtree(
    _ name: Notification.Name, into found: inout [Contextual<(Notification) -> Void>]
  ) -> Int {
    if let entry = observers[name] {
      if entry.rules.isExpired {
        observers[name] = nil
      } else {
        found.append(entry)
      }
    }
    var counted = observers.count
    for reference in subcontextRefs {
      guard let child = reference.context, child.observersInSubtree > 0 else { continue }
      counted += child.collectSubtree(name, into: &found)
    }
    observersInSubtree = counted
    return counted
  }
}
