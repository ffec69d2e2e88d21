import SimulatorFlow
import WeftRuntime

/// The tasks `together` blocks started: each app command of a block runs as its own task,
/// named after the command and its flow line (`count.increment (line 7)`), so a schedule can
/// interleave them and a trace or a stall names them. A task that throws leaves its failure
/// here until the runner takes it, after the settle that ends its block — or after a later
/// step's, when the task was still waiting for a timer when its block settled.
///
/// - Note: Isolation: MainActor; the tasks start off it (on the global executor, so the
///   schedule may order their starts) and hop to it to run the command.
@MainActor
final class TogetherTasks {
  /// A command that threw, with the index of its step in the flow.
  struct Failure {
    var stepIndex: Int
    var error: SimulationError
  }

  let plugin: SimulatorPlugin
  let app: any SimulatedApp
  private var failures: [Failure] = []

  init(plugin: SimulatorPlugin, app: any SimulatedApp) {
    self.plugin = plugin
    self.app = app
  }

  /// Starts one task per app step of `steps` (a block's steps, indexed as in the flow), in
  /// order: arrival order starts them in the order written.
  ///
  /// - Returns: the tasks, which a threaded app's runner awaits (its settle does not see
  ///   tasks); on the deterministic runtime the settle that ends the block is enough, and
  ///   a task still waiting for a timer then goes on in later steps, as an app's own would.
  /// - Complexity: O(s), s = steps.
  func start(_ steps: ArraySlice<Step>) -> [Task<Void, Never>] {
    steps.indices.compactMap { index in
      guard case .app(let appStep) = steps[index].kind else { return nil }
      return Task.detached(name: Self.taskName(steps[index])) { [self] in
        DeterministicRuntime.current?.nameRunningTask()  // a job trace names it by its hops too
        await self.perform(appStep, stepIndex: index)
      }
    }
  }

  /// The failures recorded since the last call, in the order they happened.
  func takeFailures() -> [Failure] {
    defer { failures.removeAll() }
    return failures
  }

  /// `count.increment (line 7)`, with the loop iterations when there are any
  /// (`form.submit (line 4, iteration 2)`): what traces and stall reports call the task.
  static func taskName(_ step: Step) -> String {
    let iterations =
      switch step.iterations.count {
      case 0: ""
      case 1: ", iteration \(step.iterations[0])"
      default: ", iterations \(step.iterations.map(String.init).joined(separator: "."))"
      }
    return "\(step.kind.command) (line \(step.location.line)\(iterations))"
  }

  private func perform(_ step: AppStep, stepIndex: Int) async {
    do throws(SimulationError) {
      try await plugin.perform(step, on: app)
    } catch {
      failures.append(Failure(stepIndex: stepIndex, error: error))
    }
  }
}
