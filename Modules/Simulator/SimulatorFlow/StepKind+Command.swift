extension StepKind {
  /// The name of the command that writes this step (`form.submit`, `network fault`), as in
  /// `FlowCommand.name`: a short label for report rows.
  ///
  /// - Complexity: O(1).
  public var command: String {
    switch self {
    case .attachViews: "views"
    case .detachViews: "views detach"
    case .detachAllViews: "views detach all"
    case .app(let step): step.command
    case .advanceClock: "clock advance"
    case .wait: "wait"
    case .expect: "expect"
    case .log: "log"
    }
  }
}
