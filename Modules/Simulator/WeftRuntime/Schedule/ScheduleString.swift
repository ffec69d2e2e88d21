/// A schedule as text: what `explore` prints for a failing schedule and `run --schedule`
/// replays. Only deviations from arrival order are written, so a long run stays short:
/// `s1:120:7=1/2,31=2/3` is 120 decisions, all in arrival order but decision 7 (the second of
/// two candidates) and decision 31 (the third of three).
///
/// ```swift
/// let decisions = [ScheduleChooser.Decision(choice: 0, count: 2), .init(choice: 1, count: 3)]
/// let text = ScheduleString.encode(decisions)           // "s1:2:1=1/3"
/// let script = try ScheduleString.decode(text)          // choice 0 (any count), then 1 of 3
/// ```
///
/// - Complexity: O(d) to encode or decode, d = decisions.
/// - Note: Isolation: pure functions.
public enum ScheduleString {
  /// Why a text is not a schedule string.
  public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, with the offending part.
    public let message: String
    public var description: String { message }
  }

  /// The text of `decisions`: its length and its deviations.
  ///
  /// - Complexity: O(d).
  public static func encode(_ decisions: [ScheduleChooser.Decision]) -> String {
    var deviations: [String] = []
    for (index, decision) in decisions.enumerated() where decision.choice != 0 {
      deviations.append("\(index)=\(decision.choice)/\(decision.count)")
    }
    return "s1:\(decisions.count):" + deviations.joined(separator: ",")
  }

  /// The script a schedule string replays: arrival order (any number of candidates) where no
  /// deviation is written, the written choice (of exactly that many candidates) where one is.
  ///
  /// - Throws: `Problem` naming what does not parse.
  /// - Complexity: O(d).
  public static func decode(_ text: String) throws(Problem) -> [ScheduleChooser.Decision] {
    let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0] == "s1" else {
      throw Problem(
        message: "not a schedule string (expected s1:LENGTH:DEVIATIONS): '\(prefix(text))'")
    }
    guard let length = Int(parts[1]), (0...50_000_000).contains(length) else {
      throw Problem(message: "bad schedule length '\(parts[1])'")
    }
    var script = [ScheduleChooser.Decision](
      repeating: ScheduleChooser.Decision(choice: 0, count: 0), count: length)
    var previous = -1
    for deviation in parts[2].split(separator: ",") {
      let sides = deviation.split(separator: "=")
      let pick = sides.count == 2 ? sides[1].split(separator: "/") : []
      guard sides.count == 2, pick.count == 2, let index = Int(sides[0]),
        let choice = UInt32(pick[0]), let count = UInt32(pick[1]),
        index > previous, index < length, choice > 0, choice < count
      else {
        throw Problem(
          message: "bad deviation '\(prefix(String(deviation)))' in the schedule string")
      }
      script[index] = ScheduleChooser.Decision(choice: choice, count: count)
      previous = index
    }
    return script
  }

  /// How many decisions deviate from arrival order.
  ///
  /// - Complexity: O(d).
  public static func deviations(_ decisions: [ScheduleChooser.Decision]) -> Int {
    decisions.count { $0.choice != 0 }
  }

  private static func prefix(_ text: String) -> String {
    text.count > 40 ? String(text.prefix(40)) + "…" : text
  }
}
