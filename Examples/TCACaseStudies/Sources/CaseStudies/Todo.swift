import Foundation

/// One row of TCA's Todos: a description and a checkbox (TCA's `Todo` reducer, whose
/// `BindingReducer` becomes two events).
///
/// - Note: Isolation: values and a pure function.
/// - Complexity: O(1) per event.
public enum Todo {
  /// A to-do.
  public struct State: Equatable, Identifiable, Sendable {
    public var description = ""
    public let id: UUID
    public var isComplete = false
    /// Makes a to-do.
    public init(description: String = "", id: UUID, isComplete: Bool = false) {
      (self.description, self.id, self.isComplete) = (description, id, isComplete)
    }
  }

  /// What the row's controls do.
  public enum Event: Equatable, Sendable {
    case descriptionChanged(String)
    case isCompleteChanged(Bool)
  }

  /// Applies one event.
  public static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .descriptionChanged(let description): state.description = description
    case .isCompleteChanged(let isComplete): state.isComplete = isComplete
    }
  }
}
