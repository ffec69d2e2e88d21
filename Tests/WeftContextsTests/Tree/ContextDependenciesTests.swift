import Foundation
import Testing
import WeftContexts
import WeftDependencies

@Suite("Dependencies of a context subtree")
@MainActor
struct ContextDependenciesTests {
  @Test func overridesReachTheSubtreeAndNotTheSiblings() async {
    let root = Context(named: "root")
    let screen = root.createSubcontext(named: "screen")
    let row = screen.createSubcontext(named: "row")
    let sibling = root.createSubcontext(named: "sibling")
    screen.overrideDependencies { $0.uuid = .constant(UUID(counting: 1)) }
    row.overrideDependencies { $0.date = .constant(Date(timeIntervalSince1970: 7)) }

    #expect(row.dependencyValues.uuid() == UUID(counting: 1))
    #expect(row.dependencyValues.date.now == Date(timeIntervalSince1970: 7))
    #expect(screen.dependencyValues.uuid() == UUID(counting: 1))
    #expect(sibling.dependencyValues.uuid() != UUID(counting: 1))
    #expect(sibling.dependencyValues.overrideCount == 0)

    // A later override on a lower context wins.
    row.overrideDependencies { $0.uuid = .constant(UUID(counting: 2)) }
    #expect(row.dependencyValues.uuid() == UUID(counting: 2))
    #expect(screen.dependencyValues.uuid() == UUID(counting: 1))
    _ = (root, sibling)
  }

  @Test func codeRunInASubtreeAndTheTasksItStartsReadItsDependencies() async {
    let screen = Context(named: "screen")
    screen.overrideDependencies { $0.uuid = .constant(UUID(counting: 3)) }
    let (direct, task) = screen.withDependencies {
      @Dependency(\.uuid) var uuid
      return (uuid(), Task { DependencyValues.current.uuid() })
    }
    let inTask = await task.value
    #expect(direct == UUID(counting: 3))
    #expect(inTask == UUID(counting: 3))
    #expect(DependencyValues.current.uuid() != UUID(counting: 3))
  }
}
