import Foundation
import WeftCore
import WeftDependencies
import WeftFeedback

/// Which to-dos the list shows.
public enum Filter: String, CaseIterable, Hashable, Sendable {
  case all = "All"
  case active = "Active"
  case completed = "Completed"
}

/// Whether the list is being edited (SwiftUI's `EditMode`, which the list binds to).
public enum EditMode: Hashable, Sendable { case active, inactive }

/// TCA's Todos example in Weft: add, edit, complete, delete and move to-dos, filter them,
/// clear the completed ones; completed to-dos sink to the bottom one second after the last
/// completion (each completion restarts the wait), and 100 ms after a move.
///
/// - Note: Isolation: values and pure functions; the system runs them on its host.
/// - Complexity: O(n) per event, n = to-dos.
public enum Todos {
  /// What the screen shows.
  public struct State: Equatable, Sendable {
    public var editMode: EditMode = .inactive
    public var filter: Filter = .all
    public var todos: IdentifiedArray<Todo.State> = []

    /// Makes the list.
    public init(filter: Filter = .all, todos: IdentifiedArray<Todo.State> = []) {
      (self.filter, self.todos) = (filter, todos)
    }

    /// The to-dos the filter lets through, in order.
    public var filteredTodos: [Todo.State] {
      switch filter {
      case .active: todos.filter { !$0.isComplete }
      case .all: Array(todos)
      case .completed: todos.filter(\.isComplete)
      }
    }
  }

  /// What happens on the screen.
  public enum Event: Equatable, Sendable {
    case addTodoButtonTapped
    case clearCompletedButtonTapped
    case delete(IndexSet)
    case editModeChanged(EditMode)
    case filterChanged(Filter)
    case move(IndexSet, Int)
    case sortCompletedTodos
    case todo(id: UUID, Todo.Event)
    case todoAdded(UUID)
  }

  enum EffectID { case add, todoCompletion, move }

  /// Applies one event: a row's to its `Todo`, the list's to the list.
  ///
  /// - Complexity: O(1) expected for a row's event; O(n) for the list's, n = to-dos.
  public static let reduce = Reduce.combine(
    Reduce.forEach(
      \State.todos, extract: { if case .todo(let id, let event) = $0 { (id, event) } else { nil } },
      reduce: Todo.reduce),
    reduceList)

  static func reduceList(_ state: inout State, _ event: Event) {
    switch event {
    case .addTodoButtonTapped, .todo: break
    case .todoAdded(let id): state.todos.insert(Todo.State(id: id), at: 0)
    case .clearCompletedButtonTapped: state.todos.removeAll(where: \.isComplete)
    case .delete(let offsets):
      let filtered = state.filteredTodos
      for index in offsets { state.todos.remove(id: filtered[index].id) }
    case .editModeChanged(let mode): state.editMode = mode
    case .filterChanged(let filter): state.filter = filter
    case .move(var source, var destination):
      if state.filter == .completed {
        let filtered = state.filteredTodos
        source = IndexSet(source.compactMap { state.todos.index(id: filtered[$0].id) })
        destination =
          destination < filtered.endIndex
          ? state.todos.index(id: filtered[destination].id) ?? destination : state.todos.endIndex
      }
      state.todos.move(fromOffsets: source, toOffset: destination)
    case .sortCompletedTodos: state.todos.sort { $1.isComplete && !$0.isComplete }
    }
  }

  /// A new to-do's id (the `uuid` dependency: the reducer stays pure), and the sort: 1 s after
  /// the last completion (a completion restarts the wait), 100 ms after a move, on the
  /// `continuousClock` dependency.
  public static let feedbacks: [Feedback<State, Event>] = [
    .cancellable { event, _ in
      switch event {
      case .addTodoButtonTapped:
        .run(id: EffectID.add) { .todoAdded(DependencyValues.current.uuid()) }
      default: nil
      }
    }.named("add"),
    .cancellable { event, _ in
      switch event {
      case .todo(_, .isCompleteChanged):
        .run(id: EffectID.todoCompletion, cancelInFlight: true) { await sort(after: .seconds(1)) }
      case .move: .run(id: EffectID.move) { await sort(after: .milliseconds(100)) }
      default: nil
      }
    }.named("sort"),
  ]

  @Sendable static func sort(after delay: Duration) async -> Event? {
    @Dependency(\.continuousClock) var clock
    do { try await clock.sleep(for: delay) } catch { return nil }
    return .sortCompletedTodos
  }
}
