import CaseStudies
import Foundation
import Testing
import WeftCore
import WeftDependencies
import WeftTesting

/// TCA's `TodosTests`, ported test for test. TCA's bindings (`\.binding.filter`,
/// `\.todos[id:].binding.isComplete`) are named events here.
@MainActor
struct TodosTests {
  let clock = TestClock()

  func makeStore(_ initial: Todos.State = Todos.State()) -> TestStore<Todos.State, Todos.Event> {
    TestStore(
      initial: initial, reduce: Todos.reduce, feedbacks: Todos.feedbacks, clock: clock,
      dependencies: { $0.uuid = .incrementing })  // `clock` is the continuousClock too
  }

  static func todos(_ completed: Bool...) -> IdentifiedArray<Todo.State> {
    IdentifiedArray(
      uniqueElements: completed.enumerated().map {
        Todo.State(id: UUID($0.offset), isComplete: $0.element)
      })
  }

  @Test func add() async {
    let store = makeStore()

    store.send(.addTodoButtonTapped, effects: .started("add"))
    await store.receive(.todoAdded(UUID(0))) {
      $0.todos.insert(Todo.State(description: "", id: UUID(0), isComplete: false), at: 0)
    }
    store.send(.addTodoButtonTapped, effects: .started("add"))
    await store.receive(.todoAdded(UUID(1))) {
      $0.todos = [
        Todo.State(description: "", id: UUID(1), isComplete: false),
        Todo.State(description: "", id: UUID(0), isComplete: false),
      ]
    }
    await store.finish()
  }

  @Test func edit() async {
    let store = makeStore(Todos.State(todos: Self.todos(false)))

    store.send(.todo(id: UUID(0), .descriptionChanged("Learn Composable Architecture"))) {
      $0.todos[id: UUID(0)]?.description = "Learn Composable Architecture"
    }
    await store.finish()
  }

  @Test func complete() async {
    let store = makeStore(Todos.State(todos: Self.todos(false, false)))

    store.send(.todo(id: UUID(0), .isCompleteChanged(true)), effects: .started("sort")) {
      $0.todos[id: UUID(0)]?.isComplete = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.sortCompletedTodos) { $0.todos = [$0.todos[1], $0.todos[0]] }
    await store.finish()
  }

  @Test func completionDebounce() async {
    let store = makeStore(Todos.State(todos: Self.todos(false, false)))

    store.send(.todo(id: UUID(0), .isCompleteChanged(true)), effects: .started("sort")) {
      $0.todos[id: UUID(0)]?.isComplete = true
    }
    await clock.advance(by: .milliseconds(500))
    store.send(
      .todo(id: UUID(0), .isCompleteChanged(false)), effects: .started("sort").cancelling("sort")
    ) {
      $0.todos[id: UUID(0)]?.isComplete = false
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.sortCompletedTodos)
    await store.finish()
  }

  @Test func clearCompleted() async {
    let store = makeStore(Todos.State(todos: Self.todos(false, true)))

    store.send(.clearCompletedButtonTapped) { $0.todos = [$0.todos[0]] }
    await store.finish()
  }

  @Test func delete() async {
    let store = makeStore(Todos.State(todos: Self.todos(false, false, false)))

    store.send(.delete([1])) { $0.todos = [$0.todos[0], $0.todos[2]] }
    await store.finish()
  }

  @Test func filteredDelete() async {
    let store = makeStore(Todos.State(filter: .completed, todos: Self.todos(false, false, true)))

    store.send(.delete([0])) { $0.todos = [$0.todos[0], $0.todos[1]] }
    await store.finish()
  }

  @Test func editModeMove() async {
    let store = makeStore(Todos.State(todos: Self.todos(false, false, false)))

    store.send(.editModeChanged(.active)) { $0.editMode = .active }
    store.send(.move([0], 2), effects: .started("sort")) {
      $0.todos = [$0.todos[1], $0.todos[0], $0.todos[2]]
    }
    await clock.advance(by: .milliseconds(100))
    await store.receive(.sortCompletedTodos)
    await store.finish()
  }

  @Test func filteredEditModeMove() async {
    let store = makeStore(Todos.State(todos: Self.todos(false, false, true, true)))

    store.send(.editModeChanged(.active)) { $0.editMode = .active }
    store.send(.filterChanged(.completed)) { $0.filter = .completed }
    store.send(.move([0], 2), effects: .started("sort")) {
      $0.todos = [$0.todos[0], $0.todos[1], $0.todos[3], $0.todos[2]]
    }
    await clock.advance(by: .milliseconds(100))
    await store.receive(.sortCompletedTodos)
    await store.finish()
  }

  @Test func filteredEdit() async {
    let store = makeStore(Todos.State(todos: Self.todos(false, true)))

    store.send(.filterChanged(.completed)) { $0.filter = .completed }
    store.send(.todo(id: UUID(1), .descriptionChanged("Did this already"))) {
      $0.todos[id: UUID(1)]?.description = "Did this already"
    }
    await store.finish()
  }
}
