import Foundation
import SimulatorFlow

/// The `required…` accessors a plug-in command's `perform` uses: the value, or a
/// `SimulationError` naming the argument (a failed step, never a crash).
extension CommandArguments {
  /// `text(_:)`, or an error naming the argument.
  public func requiredText(_ name: String) throws(SimulationError) -> String {
    try required(text(name), name)
  }

  /// `number(_:)`, or an error naming the argument.
  public func requiredNumber(_ name: String) throws(SimulationError) -> Double {
    try required(number(name), name)
  }

  /// `integer(_:)`, or an error naming the argument.
  public func requiredInteger(_ name: String) throws(SimulationError) -> Int {
    try required(integer(name), name)
  }

  /// `duration(_:)`, or an error naming the argument.
  public func requiredDuration(_ name: String) throws(SimulationError) -> Duration {
    try required(duration(name), name)
  }

  /// `date(_:)`, or an error naming the argument.
  public func requiredDate(_ name: String) throws(SimulationError) -> Date {
    try required(date(name), name)
  }

  /// `boolean(_:)`, or an error naming the argument.
  public func requiredBoolean(_ name: String) throws(SimulationError) -> Bool {
    try required(boolean(name), name)
  }

  private func required<Value>(_ value: Value?, _ name: String) throws(SimulationError) -> Value {
    guard let value else {
      throw SimulationError("the command has no argument '\(name)' of that kind (a plug-in bug)")
    }
    return value
  }
}
