import Foundation
import Testing

@testable import SimulatorFlow

/// `together { ... }` and `repeat N together { ... }`: the block's app commands share a group
/// number (they start at once, each as a task); anything else in a block, a nested block or
/// an empty one is a `file:line:col` error.
@Suite struct TogetherBlockTests {
  @Test func aBlocksStepsShareAGroupAndOtherStepsHaveNone() throws {
    let flow = try FlowTesting.parse(
      """
      logout
      together { form.submit ; form.reset }
      together {
        form.submit
      }
      logout
      """)
    #expect(flow.steps.map(\.together) == [nil, 1, 1, 2, nil])
    #expect(
      flow.steps.map(\.kind) == [
        FlowTesting.logout, FlowTesting.submitForm, FlowTesting.resetForm, FlowTesting.submitForm,
        FlowTesting.logout,
      ])
    #expect(flow.steps.map(\.location.line) == [1, 2, 2, 4, 6])
  }

  @Test func repeatTogetherStartsEveryIterationInOneBlock() throws {
    let flow = try FlowTesting.parse(
      """
      repeat 3 as k together { form.set metric=steps value=$k }
      repeat 2 { together { form.submit ; form.reset } }
      together { repeat 2 { form.submit } }
      """)
    #expect(flow.steps.map(\.together) == [1, 1, 1, 2, 2, 3, 3, 4, 4])
    #expect(flow.steps.prefix(3).map(\.kind) == ["1", "2", "3"].map(FlowTesting.steps))
    #expect(flow.steps.prefix(3).map(\.iterations) == [[1], [2], [3]])
    let unnamed = try FlowTesting.parse("repeat 2 together { form.submit }")
    #expect(unnamed.steps.map(\.together) == [1, 1])
  }

  @Test func onlyAppCommandsMayRunInABlock() throws {
    let error = try #require(
      FlowTesting.error("together { form.submit ; expect form.result == success }"))
    #expect(error.kind == .misplacedStatement)
    #expect(
      error.description == #"""
        Flows/test.flow:1:26: error: 'expect' cannot run inside a 'together' block (opened on line 1)
            1 | together { form.submit ; expect form.result == success }
              |                          ^~~~~~
        hint: a together block starts app commands as tasks; put 'expect' after the block's '}', where its commands have settled
        """#)
    for statement in [
      "clock advance 1s", "wait form.result == success", "log \"x\"", "views 1 observe form.result",
    ] {
      #expect(
        FlowTesting.error("together { form.submit ; \(statement) }")?.kind == .misplacedStatement,
        "\(statement)")
    }
  }

  @Test func nestedAndEmptyBlocksAreErrorsAndEveryTopLevelOneIsReported() throws {
    let error = try #require(
      FlowTesting.error(
        """
        together {
          together { form.submit }
        }
        together { }
        repeat 2 togther { form.submit }
        """))
    #expect(error.kind == .misplacedStatement)
    #expect(error.location.line == 2)
    #expect(error.location.column == 3)
    #expect(error.message == "a 'together' block inside another one (opened on line 1)")
    let following = error.followingErrors ?? []
    #expect(following.map(\.location.line) == [4, 5])
    #expect(following.first?.message == "this 'together' block starts no command")
    #expect(following.last?.hint == "did you mean 'together'?")
    #expect(FlowTesting.error("repeat 2 as k banana { form.submit }")?.kind == .unknownEnumWord)
    #expect(FlowTesting.error("together now { form.submit }")?.kind == .unexpectedArgument)
  }

  @Test func blocksRoundTripThroughJSON() throws {
    let flow = try FlowTesting.parse("together { form.submit ; form.reset }\nlogout")
    let data = try JSONEncoder().encode(flow)
    #expect(try JSONDecoder().decode(Flow.self, from: data) == flow)
  }
}
