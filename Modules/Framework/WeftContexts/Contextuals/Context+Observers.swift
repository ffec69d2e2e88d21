import Foundation

/// Observers: callbacks reached by posts from anywhere in their context-tree. A context
/// holds any number of observers per notification name, as ProContext does.
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
  /// A context holds any number of observers per name, in the order they were added (every
  /// field container of a form may observe the same name on the form's context): adding
  /// one never replaces or refuses another. Each observer has its own rules: while its
  /// `condition` does not hold, posts skip it (no trap: a post is not a request); once its
  /// `expiry` returns true it is gone, and is removed the next time a post or an add of
  /// that name meets it.
  ///
  /// - Complexity: O(d + k) amortized, d = depth (the supercontexts' observer counts are
  ///   kept so that posts skip subtrees without observers), k = observers of `name` on this
  ///   context (expired ones are removed here).
  /// - Note: Isolation: MainActor; `calling` runs on the MainActor, inside `post`.
  /// - Note: Allocations: one entry object and the closures' contexts; the table and the
  ///   name's list on their first entry.
  public func addObserver(
    _ name: Notification.Name, calling: @escaping (Notification) -> Void,
    if condition: (() -> Bool)? = nil, expiresIf expiry: (() -> Bool)? = nil
  ) {
    install(name, calling, Rules(if: condition, expiresIf: expiry))
  }

  /// Adds an observer that expires when `object` is released (held weakly).
  ///
  /// - Complexity: O(d + k) amortized, d = depth, k = observers of `name` on this context.
  /// - Note: Isolation: MainActor.
  public func addObserver(
    _ name: Notification.Name, calling: @escaping (Notification) -> Void,
    if condition: (() -> Bool)? = nil, expiresWith object: AnyObject
  ) {
    install(name, calling, Rules(if: condition, expiresWith: object))
  }

  /// Adds an observer called only while `view` is attached to a window, and expired once
  /// `view` is released.
  ///
  /// - Complexity: O(d + k) amortized, d = depth, k = observers of `name` on this context.
  /// - Note: Isolation: MainActor.
  public func addObserver(
    _ name: Notification.Name, calling: @escaping (Notification) -> Void,
    ifAttached view: any HeadlessView
  ) {
    install(name, calling, Rules(ifAttached: view))
  }

  /// Twin of `addObserver(_:calling:if:expiresIf:)`, kept so that every add has a `try…`
  /// form. It never throws: observers are many per name, so no name is ever taken.
  ///
  /// - Complexity: O(d + k) amortized, d = depth, k = observers of `name` on this context.
  /// - Note: Isolation: MainActor.
  public func tryAddObserver(
    _ name: Notification.Name, calling: @escaping (Notification) -> Void,
    if condition: (() -> Bool)? = nil, expiresIf expiry: (() -> Bool)? = nil
  ) throws(ContextError) {
    install(name, calling, Rules(if: condition, expiresIf: expiry))
  }

  /// Twin of `addObserver(_:calling:if:expiresWith:)`; never throws (see
  /// `tryAddObserver(_:calling:if:expiresIf:)`).
  ///
  /// - Complexity: O(d + k) amortized, d = depth, k = observers of `name` on this context.
  /// - Note: Isolation: MainActor.
  public func tryAddObserver(
    _ name: Notification.Name, calling: @escaping (Notification) -> Void,
    if condition: (() -> Bool)? = nil, expiresWith object: AnyObject
  ) throws(ContextError) {
    install(name, calling, Rules(if: condition, expiresWith: object))
  }

  /// Twin of `addObserver(_:calling:ifAttached:)`; never throws (see
  /// `tryAddObserver(_:calling:if:expiresIf:)`).
  ///
  /// - Complexity: O(d + k) amortized, d = depth, k = observers of `name` on this context.
  /// - Note: Isolation: MainActor.
  public func tryAddObserver(
    _ name: Notification.Name, calling: @escaping (Notification) -> Void,
    ifAttached view: any HeadlessView
  ) throws(ContextError) {
    install(name, calling, Rules(ifAttached: view))
  }

  /// Appends an observer of `name`, after removing the expired ones of that name.
  private func install(
    _ name: Notification.Name, _ calling: @escaping (Notification) -> Void, _ rules: Rules
  ) {
    let removed = pruneExpiredObservers(of: name)
    observers[name, default: []].append(ObserverEntry(body: calling, rules: rules))
    ownObserverCount += 1
    adjustObserverCount(by: 1 - removed)
  }

  /// Removes every observer of `name` that this context holds (observers of `name` on
  /// other contexts stay). Returns whether there was one. An observer removed while a post
  /// is under way is not called by it.
  ///
  /// - Complexity: O(d + k), d = depth, k = observers of `name` on this context.
  /// - Note: Isolation: MainActor.
  @discardableResult
  public func removeObserver(_ name: Notification.Name) -> Bool {
    guard let entries = observers.removeValue(forKey: name) else { return false }
    for entry in entries { entry.isRemoved = true }
    ownObserverCount -= entries.count
    adjustObserverCount(by: -entries.count)
    return true
  }

  /// Posts a notification to every observer of `name` in this context's context-tree:
  /// this context, its supercontexts, and its subcontexts at any depth.
  ///
  /// ```swift
  /// context.post(name: .assessmentCategoryWeightChanged, object: weight)
  /// ```
  ///
  /// Every live observer is called exactly once, in this order: this context's, then its
  /// supercontexts' from the nearest to the root, then its subcontexts' depth-first in
  /// creation order; the observers of one context are called in the order they were
  /// added. Sibling and cousin contexts are not in the context-tree and hear nothing.
  /// Observers added during the post are not called by it; an observer that expires, is
  /// removed, or whose condition stops holding before its turn is skipped.
  ///
  /// - Complexity: O(d + s + k), d = depth, s = contexts below this one on a path to an
  ///   observer (subtrees without observers are skipped), k = observers of `name` found.
  /// - Note: Isolation: MainActor; the observers run inside this call.
  /// - Note: Allocations: the `Notification`; an array of the observers found, if any.
  public func post(
    name: Notification.Name, object: Any? = nil, userInfo: [AnyHashable: Any]? = nil
  ) {
    var found: [ObserverEntry] = []
    var next: Context? = self
    while let context = next {
      context.collect(name, into: &found)
      next = context.supercontext
    }
    let before = observersInSubtree
    var counted = ownObserverCount
    for reference in subcontextRefs {
      guard let child = reference.context, child.observersInSubtree > 0 else { continue }
      counted += child.collectSubtree(name, into: &found)
    }
    if counted != before { adjustObserverCount(by: counted - before) }
    guard !found.isEmpty else { return }
    let notification = Notification(name: name, object: object, userInfo: userInfo)
    for observer in found
    where !observer.isRemoved && !observer.rules.isExpired && observer.rules.conditionHolds {
      observer.body(notification)
    }
  }

  /// Removes this context's expired observers of `name` (keeping the others in order) and
  /// returns how many went; does not touch the supercontexts' counts.
  private func pruneExpiredObservers(of name: Notification.Name) -> Int {
    guard var entries = observers[name] else { return 0 }
    let before = entries.count
    entries.removeAll { entry in
      guard entry.rules.isExpired else { return false }
      entry.isRemoved = true
      return true
    }
    let removed = before - entries.count
    guard removed > 0 else { return 0 }
    observers[name] = entries.isEmpty ? nil : entries
    ownObserverCount -= removed
    return removed
  }

  /// Appends this context's own live observers of `name`, in the order added, removing
  /// the expired ones (and fixing the counts of this context and its supercontexts).
  private func collect(_ name: Notification.Name, into found: inout [ObserverEntry]) {
    let removed = pruneExpiredObservers(of: name)
    if removed > 0 { adjustObserverCount(by: -removed) }
    if let entries = observers[name] { found.append(contentsOf: entries) }
  }

  /// Collects observers of `name` here and below; returns, and stores, the exact number of
  /// observers in this subtree (which heals counts left high by released subcontexts).
  private func collectSubtree(
    _ name: Notification.Name, into found: inout [ObserverEntry]
  )
    -> Int
  {
    _ = pruneExpiredObservers(of: name)
    if let entries = observers[name] { found.append(contentsOf: entries) }
    var counted = ownObserverCount
    for reference in subcontextRefs {
      guard let child = reference.context, child.observersInSubtree > 0 else { continue }
      counted += child.collectSubtree(name, into: &found)
    }
    observersInSubtree = counted
    return counted
  }
}

/// One observer: its callback, its own rules, and whether it was removed (so that a post
/// under way skips it).
@MainActor
final class ObserverEntry {
  let body: (Notification) -> Void
  let rules: Rules
  var isRemoved = false

  init(body: @escaping (Notification) -> Void, rules: Rules) {
    self.body = body
    self.rules = rules
  }
}
