/// A read-write view of one value: `get`, `set`, and `map` to derive another binding.
///
/// ```swift
/// let celsius = context.bind(\.temperature)                      // ContextBinding<Double>
/// let fahrenheit = celsius.map(get: { $0 * 9 / 5 + 32 }, set: { ($0 - 32) * 5 / 9 })
/// fahrenheit.set(212)                                             // writes 100 to the client
/// ```
///
/// Bindings made by a `ClientContext` read the context's mirror and write by asking the
/// client (one update per `set`); they hold the context weakly, so a binding kept after
/// its context is gone still reads the last mirrored value and drops writes.
///
/// - Complexity: `get` and `set` cost what their closures cost; `map` adds one call.
/// - Note: Isolation: MainActor.
/// - Note: Allocations: none to copy; `map` makes two closures.
@MainActor
public struct ContextBinding<Value> {
  private let getter: () -> Value
  private let setter: (Value) -> Void

  /// Makes a binding from a getter and a setter.
  ///
  /// - Complexity: O(1).
  public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
    self.getter = get
    self.setter = set
  }

  /// A binding that always reads `value` and ignores writes.
  ///
  /// - Complexity: O(1).
  public static func constant(_ value: Value) -> ContextBinding<Value> {
    ContextBinding(get: { value }, set: { _ in })
  }

  /// The current value.
  ///
  /// - Complexity: what the getter costs.
  public func get() -> Value { getter() }

  /// Writes `value`.
  ///
  /// - Complexity: what the setter costs.
  public func set(_ value: Value) { setter(value) }

  /// The current value, readable and writable.
  ///
  /// - Complexity: what the getter or setter costs.
  public var wrappedValue: Value {
    get { getter() }
    nonmutating set { setter(newValue) }
  }

  /// A binding of a value derived from this one: `get` transforms reads, `set` turns a
  /// written value back into this binding's value.
  ///
  /// - Complexity: one extra call per read or write.
  public func map<Other>(
    get: @escaping (Value) -> Other, set: @escaping (Other) -> Value
  ) -> ContextBinding<Other> {
    let getter = self.getter
    let setter = self.setter
    return ContextBinding<Other>(get: { get(getter()) }, set: { setter(set($0)) })
  }

  /// A binding of a part of this value: a write reads the whole value, changes the part,
  /// and writes the whole value back.
  ///
  /// - Complexity: one read and one write of the whole value per write.
  public func map<Part>(_ keyPath: WritableKeyPath<Value, Part>) -> ContextBinding<Part> {
    let getter = self.getter
    let setter = self.setter
    return ContextBinding<Part>(
      get: { getter()[keyPath: keyPath] },
      set: { part in
        var whole = getter()
        whole[keyPath: keyPath] = part
        setter(whole)
      })
  }
}
