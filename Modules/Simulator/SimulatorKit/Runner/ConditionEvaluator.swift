import Foundation
import SimulatorFlow
import WeftSimulation

/// Decides whether an observed value satisfies a flow condition (`expect`, `wait`).
///
/// Numbers compare numerically whatever their spelling (`72` matches `72.0`); durations
/// compare against values in seconds; words and strings compare with the value's text;
/// `contains` is a substring test on the text.
enum ConditionEvaluator {
  static func holds(_ condition: StepKind.Condition, for actual: ObservedValue) -> Bool {
    let op = condition.op
    if op == .contains {
      return actual.description.contains(text(of: condition.value))
    }
    if let expected = number(of: condition.value), let value = actual.number {
      return compare(value, expected, op)
    }
    if case .bool(let expected) = condition.value, case .bool(let value) = actual {
      return compare(value ? 1 : 0, expected ? 1 : 0, op)
    }
    if case .none = condition.value {
      let isNone = actual == .none
      return op == .equal ? isNone : op == .notEqual ? !isNone : false
    }
    let expected = text(of: condition.value)
    let value = actual.description
    switch op {
    case .equal: return value == expected
    case .notEqual: return value != expected
    case .less: return value < expected
    case .lessOrEqual: return value <= expected
    case .greater: return value > expected
    case .greaterOrEqual: return value >= expected
    case .contains: return value.contains(expected)
    }
  }

  private static func number(of value: StepKind.Value) -> Double? {
    switch value {
    case .number(let number): number
    case .duration(let duration):
      Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    default: nil
    }
  }

  private static func text(of value: StepKind.Value) -> String {
    switch value {
    case .string(let text), .word(let text): text
    case .date(let date): date.formatted(.iso8601)
    default: value.description
    }
  }

  private static func compare(
    _ lhs: Double, _ rhs: Double, _ op: StepKind.ComparisonOperator
  )
    -> Bool
  {
    switch op {
    case .equal: lhs == rhs
    case .notEqual: lhs != rhs
    case .less: lhs < rhs
    case .lessOrEqual: lhs <= rhs
    case .greater: lhs > rhs
    case .greaterOrEqual: lhs >= rhs
    case .contains: false
    }
  }
}
