/// A fixed set of words an argument accepts (a metric, a range, a fault kind, ...).
protocol FlowWord: CaseIterable, RawRepresentable, Sendable where RawValue == String {
  /// What the words are, for messages: "metric" in "unknown metric 'hartRate'".
  static var wordKind: String { get }
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
