import WeftCore

/// The dependencies in scope: every `DependencyKey`'s value, overridden or default.
///
/// ```swift
/// // Read (in an effect, or anywhere):
/// @Dependency(\.uuid) var uuid
/// let id = uuid()
/// // Override for an operation and everything it starts:
/// withDependencies { $0.uuid = .incrementing } operation: { makeTodo() }
/// ```
///
/// A value comes from, in order: an override in scope (`withDependencies`, a `TestStore`'s or
/// feedback system's `dependencies:`, a context's), else the key's default for the scope's
/// `context` (`liveValue` or `testValue`), made once per scope and kept: an incrementing UUID
/// generator counts on across one test, and starts again at 0 in the next.
///
/// The scope is task-local (`@TaskLocal`): `withDependencies` sets it for its operation and
/// every task the operation creates with `Task {}` (not `Task.detached`). A feedback system
/// keeps the scope it was made in and runs its rules and effects in it, wherever its events
/// come from.
///
/// - Complexity: reading a value is one dictionary look-up (overrides), or one lock and one
///   look-up (defaults); setting one copies the overrides (O(o), o = overrides).
/// - Note: Isolation: a `Sendable` value; any isolation reads and overrides.
/// - Note: Allocations: one per override set; a default is made once per scope.
public struct DependencyValues: Sendable {
  private var storage: Storage

  /// An empty set in `context`, with defaults of its own (a fresh incrementing UUID
  /// generator, for example). `TestStore` and the `.dependencies` trait start from
  /// `DependencyValues(context: .test)`.
  ///
  /// - Complexity: O(1).
  public init(context: DependencyContext) {
    storage = Storage(context: context, overrides: [:], defaults: Defaults())
  }

  /// The dependencies in scope for the current task.
  ///
  /// - Complexity: O(1) (a task-local read).
  /// - Note: Isolation: any.
  public static var current: DependencyValues { scoped }

  @TaskLocal static var scoped = DependencyValues(context: .live)

  /// Which default a key nobody overrode answers: `liveValue` or `testValue`. Setting it
  /// starts fresh defaults (the overrides stay).
  public var context: DependencyContext {
    get { storage.context }
    set {
      storage = Storage(context: newValue, overrides: storage.overrides, defaults: Defaults())
    }
  }

  /// The value of `key`: its override in this set, or its default for `context`.
  ///
  /// - Complexity: one dictionary look-up; a default takes one lock more, and is made on
  ///   its first read in this scope.
  public subscript<Key: DependencyKey>(key: Key.Type) -> Key.Value {
    get {
      let id = ObjectIdentifier(key)
      if let value = storage.overrides[id] as? Key.Value { return value }
      return storage.defaults.value(id) {
        storage.context == .test ? Key.testValue : Key.liveValue
      }
    }
    set {
      var overrides = storage.overrides
      overrides[ObjectIdentifier(key)] = newValue
      storage = Storage(context: storage.context, overrides: overrides, defaults: storage.defaults)
    }
  }

  /// Whether `other` is this very set (not merely equal): a feedback system compares the
  /// scope it runs in with its own this way, at no cost when they are the same.
  package func isSameScope(as other: DependencyValues) -> Bool { storage === other.storage }

  /// The number of keys overridden in this set.
  public var overrideCount: Int { storage.overrides.count }

  final class Storage: Sendable {
    let context: DependencyContext
    let overrides: [ObjectIdentifier: any Sendable]
    let defaults: Defaults

    init(
      context: DependencyContext, overrides: [ObjectIdentifier: any Sendable], defaults: Defaults
    ) {
      self.context = context
      self.overrides = overrides
      self.defaults = defaults
    }
  }

  /// The defaults made so far in one scope, shared by every set derived from it, so a
  /// default is made once per scope (one incrementing counter per test).
  final class Defaults: Sendable {
    private let made = Locked<[ObjectIdentifier: any Sendable]>([:])

    func value<Value: Sendable>(_ id: ObjectIdentifier, make: () -> Value) -> Value {
      if let value = made.withLock({ $0[id] }) as? Value { return value }
      let value = make()  // outside the lock: a default may read other dependencies
      return made.withLock { made in
        if let earlier = made[id] as? Value { return earlier }
        made[id] = value
        return value
      }
    }
  }
}
