/// A fixed set of words an argument accepts (a metric, a range, a fault kind, ...).
protocol FlowWord: CaseIterable, RawRepresentable, Sendable where RawValue == String {
  /// What the words are, for messages: "metric" in "unknown metric 'hartRate'".
  static var wordKind: String { get }
}

extension StepKind.Metric: FlowWord {
  static var wordKind: String { "metric" }
}

extension StepKind.GradeGroup: FlowWord {
  static var wordKind: String { "grade group" }
}

extension StepKind.GradeField: FlowWord {
  static var wordKind: String { "grade field" }
}

extension StepKind.GradeBasis: FlowWord {
  static var wordKind: String { "grade basis" }
}

extension StepKind.FlagChange: FlowWord {
  static var wordKind: String { "flag change" }
}

extension StepKind.RealtimeAction: FlowWord {
  static var wordKind: String { "realtime action" }
}

extension StepKind.NetworkFault.Kind: FlowWord {
  static var wordKind: String { "network fault" }
}

/// The words of `range=` and `dashboard.range`.
enum RangeWord: String, FlowWord {
  case day
  case week
  case month
  case custom

  static var wordKind: String { "range" }
}

/// The words of an on/off switch.
enum SwitchWord: String, FlowWord {
  case on
  case off
  case `true`
  case `false`

  static var wordKind: String { "on/off value" }

  var isOn: Bool { self == .on || self == .true }
}
