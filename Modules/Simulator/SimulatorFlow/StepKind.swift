import Foundation

/// What a step does: one case per flow statement, with typed, validated arguments.
///
/// The engine's own statements (views, the clock, waits, expectations, `log`) are cases with
/// typed arguments; every command of the app's plug-in is `.app`, its arguments checked
/// against the command's declaration (durations are `Duration`, dates are resolved against
/// `Flow.ParseOptions.now`).
///
/// - Note: Isolation: a `Sendable` value.
public enum StepKind: Sendable, Equatable, Codable {
  // MARK: Views

  /// `views N observe PATH [via observation] [as NAME]`: attach `count` headless views that
  /// each observe `path`, as the group `name` (the path when no name is given), delivered
  /// by WeftCore's callbacks or through the Observation bridge.
  case attachViews(count: Int, path: String, name: String, delivery: ViewDelivery = .callbacks)
  /// `views detach NAME [N]`: detach `count` views of group `name`, or all of them (`nil`).
  case detachViews(name: String, count: Int?)
  /// `views detach all`: detach every view.
  case detachAllViews

  // MARK: App

  /// A command of the app's plug-in, with its checked arguments.
  case app(AppStep)

  // MARK: Clock

  /// `clock advance DURATION`: advance the virtual clock, running what falls due.
  case advanceClock(Duration)
  /// `wait PATH OP VALUE [timeout=DURATION]`: run until the condition holds.
  case wait(Condition, timeout: Duration?)

  // MARK: Checks and output

  /// `expect PATH OP VALUE`: fail the step unless the condition holds now.
  case expect(Condition)
  /// `log "text"`: print a line in the trace.
  case log(String)
}
