import WeftCore

/// A binding that writes only valid values, and keeps the last failure where the view can
/// read it.
///
/// ```swift
/// let age = context.bind(\.age, validate: { (0...150).contains($0) ? nil : "must be 0...150" })
/// age.binding.set(200)       // not written
/// age.failure?.description   // "value 200 for \Profile.age was not written: must be 0...150"
/// age.binding.set(42)        // written; failure is nil again
/// ```
///
/// A failure also signals `willChange` on the context, so a linked view re-renders to
/// show it.
///
/// Validation composes with any binding: `bind(_:debouncedFor:clock:validate:)` makes a
/// field that is both validated and debounced (a composer: refused values are never
/// scheduled, valid ones are written once typing pauses, and `binding.get()` shows the
/// pending value at once), and `ValidatedBinding(_:field:validate:)` validates a plain,
/// debounced or mapped `ContextBinding` made any other way.
///
/// - Complexity: one `validate` call per write.
/// - Note: Isolation: MainActor.
/// - Note: Allocations: the object; one `ValidationFailure` per refused write.
@MainActor
public final class ValidatedBinding<Value> {
  private let read: () -> Value
  private let write: (Value) -> Void
  private let validate: (Value) -> String?
  private let field: String
  private let failed: () -> Void

  /// The last refused write, or `nil` if the last write was valid (or none was made).
  ///
  /// - Complexity: O(1).
  public private(set) var failure: ValidationFailure?

  /// Writes refused so far.
  ///
  /// - Complexity: O(1).
  public private(set) var failureCount = 0

  /// Validates writes to `binding` — a plain, debounced or mapped one: a valid value goes
  /// to `binding.set`, a refused one is kept as `failure` and reported to `onFailure`.
  ///
  /// ```swift
  /// let draft = context.bind(\.draft, debouncedFor: .milliseconds(300), clock: clock)
  /// let composer = ValidatedBinding(draft, field: "draft") { $0.isEmpty ? "empty" : nil }
  /// ```
  ///
  /// - Parameters:
  ///   - binding: where valid values go, and what `binding.get()` reads.
  ///   - field: how failures name the field.
  ///   - validate: `nil` for a valid value, else why it is refused.
  ///   - onFailure: called after each refused write (a context signals `willChange` here).
  /// - Complexity: O(1).
  public convenience init(
    _ binding: ContextBinding<Value>, field: String = "value",
    validate: @escaping (Value) -> String?, onFailure: @escaping () -> Void = {}
  ) {
    self.init(
      field: field, read: binding.get, write: binding.set, validate: validate,
      failed: onFailure)
  }

  init(
    field: String, read: @escaping () -> Value, write: @escaping (Value) -> Void,
    validate: @escaping (Value) -> String?, failed: @escaping () -> Void
  ) {
    self.field = field
    self.read = read
    self.write = write
    self.validate = validate
    self.failed = failed
  }

  /// The binding: reads the state; writes a value only if it is valid.
  ///
  /// - Complexity: O(1); two closures.
  public var binding: ContextBinding<Value> {
    ContextBinding(get: read, set: { [weak self] value in self?.set(value) })
  }

  /// Writes `value` if it is valid; otherwise records the failure and writes nothing.
  ///
  /// - Returns: whether `value` was valid (and so written).
  /// - Complexity: one `validate` call, plus one client update if valid.
  @discardableResult
  public func set(_ value: Value) -> Bool {
    if let message = validate(value) {
      failure = ValidationFailure(
        field: field, value: String(describing: value), message: message)
      failureCount += 1
      failed()
      return false
    }
    failure = nil
    write(value)
    return true
  }
}

/// Why a validated binding refused a value.
///
/// - Note: Isolation: a `Sendable` value.
public struct ValidationFailure: Sendable, Hashable, CustomStringConvertible {
  /// The bound key path, as written (`\Profile.age`).
  public let field: String
  /// The refused value, described.
  public let value: String
  /// The validator's message.
  public let message: String

  public var description: String {
    "value \(value) for \(field) was not written: \(message)"
  }
}

extension ClientContext {
  /// A binding to the value at `keyPath` that writes a value only if `validate` returns
  /// `nil` for it; otherwise the returned message is kept as `failure` and the context
  /// signals `willChange`.
  ///
  /// - Complexity: as `bind(_:)`, plus one `validate` call per write.
  /// - Note: Isolation: MainActor.
  public func bind<Value: Sendable>(
    _ keyPath: any WritableKeyPath<C.State, Value> & Sendable,
    validate: @escaping (Value) -> String?
  ) -> ValidatedBinding<Value> {
    validated(bind(keyPath), field: String(describing: keyPath), validate: validate)
  }

  /// A binding to the value at `keyPath` that is validated, then debounced: a refused value
  /// is kept as `failure` (and signals `willChange`) and never scheduled; a valid one
  /// restarts the window and is written once `window` passes on `clock` with no other.
  /// `binding.get()` shows the pending valid value at once.
  ///
  /// ```swift
  /// let composer = context.bind(
  ///   \.draft, debouncedFor: .milliseconds(300), clock: clock,
  ///   validate: { $0.isEmpty ? "empty" : $0.count > 280 ? "over 280 characters" : nil })
  /// composer.set("Hello")   // shown now, written 300 ms after the last keystroke
  /// composer.set("")        // refused: failure is set, "Hello" stays pending
  /// ```
  ///
  /// - Complexity: as `bind(_:debouncedFor:clock:)`, plus one `validate` call per write.
  /// - Note: Isolation: MainActor.
  public func bind<Value: Sendable>(
    _ keyPath: any WritableKeyPath<C.State, Value> & Sendable,
    debouncedFor window: Duration, clock: any Clock<Duration>,
    validate: @escaping (Value) -> String?
  ) -> ValidatedBinding<Value> {
    validated(
      bind(keyPath, debouncedFor: window, clock: clock), field: String(describing: keyPath),
      validate: validate)
  }

  /// Validates writes to `binding` (any binding: plain, debounced, mapped), signalling
  /// `willChange` on this context when a write is refused.
  ///
  /// - Complexity: O(1).
  /// - Note: Isolation: MainActor.
  public func validated<Value>(
    _ binding: ContextBinding<Value>, field: String, validate: @escaping (Value) -> String?
  ) -> ValidatedBinding<Value> {
    ValidatedBinding(
      binding, field: field, validate: validate,
      onFailure: { [weak self] in self?.signalWillChange() })
  }
}
