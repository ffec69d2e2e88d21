/// Names one launch of an effect inside a feedback system: which feedback launched it and
/// how many launches that feedback had made.
///
/// ```swift
/// EffectID(feedback: 1, serial: 3).description   // "feedbacks[1]#3"
/// ```
///
/// - Complexity: O(1) to make, compare and hash.
/// - Note: Isolation: a `Sendable` value.
/// - Note: Allocations: none.
public struct EffectID: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The index of the feedback in the array given to the system.
  public let feedback: Int
  /// The launch count of that feedback, from 1.
  public let serial: UInt64

  /// Makes an id; systems make these, tests compare against them.
  public init(feedback: Int, serial: UInt64) {
    self.feedback = feedback
    self.serial = serial
  }

  public static func < (lhs: EffectID, rhs: EffectID) -> Bool {
    (lhs.feedback, lhs.serial) < (rhs.feedback, rhs.serial)
  }

  public var description: String { "feedbacks[\(feedback)]#\(serial)" }
}
