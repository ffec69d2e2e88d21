import Observation
import WeftContexts

/// A validated binding with tracked reads: `binding` reads the client's value (tracked by
/// property), and `failure` is tracked too, so a form re-renders its error message only
/// when the failure changes.
///
/// ```swift
/// let age = profile.bind(\.age) { (0...150).contains($0) ? nil : "must be 0...150" }
/// age.set(200)       // refused: nothing written; readers of `failure` invalidated
/// age.failure?.message   // "must be 0...150"
/// age.set(42)        // written through the context; `failure` is nil again
/// ```
///
/// - Complexity: one `validate` call per write.
/// - Note: Isolation: `@MainActor`.
/// - Note: Allocations: the object; a `ValidationFailure` per refused write.
@MainActor
public final class ObservedValidatedBinding<Value: Equatable & Sendable>: Observable {
  private let validated: ValidatedBinding<Value>
  private let read: () -> Value
  private let registrar = ObservationRegistrar()
  private var shownFailure: ValidationFailure?

  init(_ validated: ValidatedBinding<Value>, read: @escaping () -> Value) {
    self.validated = validated
    self.read = read
  }

  /// The last refused write, or `nil` if the last write was valid (or none was made).
  /// Tracked: readers are invalidated only when it changes.
  ///
  /// - Complexity: O(1).
  public var failure: ValidationFailure? {
    registrar.access(self, keyPath: \.failure)
    return shownFailure
  }

  /// Writes refused so far (not tracked).
  ///
  /// - Complexity: O(1).
  public var failureCount: Int { validated.failureCount }

  /// The binding: tracked reads of the client's value; writes validated.
  ///
  /// - Complexity: O(1); two closures.
  public var binding: ContextBinding<Value> {
    ContextBinding(get: read, set: { [weak self] value in self?.set(value) })
  }

  /// Writes `value` through the context if it is valid; otherwise records the failure and
  /// writes nothing.
  ///
  /// - Returns: whether `value` was valid (and so written).
  /// - Complexity: one `validate` call, plus one client update if valid.
  @discardableResult
  public func set(_ value: Value) -> Bool {
    let written = validated.set(value)
    let failure = validated.failure
    if failure != shownFailure {
      registrar.withMutation(of: self, keyPath: \.failure) { shownFailure = failure }
    }
    return written
  }
}
