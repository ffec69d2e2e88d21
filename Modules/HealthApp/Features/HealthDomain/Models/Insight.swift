import Foundation
import WeftPersistence

/// A generated observation about the person's health, stored as a row of `insight`.
///
/// - Complexity: O(1) to make and copy.
/// - Note: Isolation: a `Sendable` value; any isolation.
/// - Note: Allocations: its strings.
public struct Insight: PersistableRecord, Equatable, Hashable {
  /// `"insight"`.
  public static let tableName = "insight"

  /// How urgent an insight is. Raw values equal the case names.
  ///
  /// - Note: Isolation: a `Sendable` value.
  public enum Priority: String, CaseIterable, Codable, Sendable, Hashable, Comparable {
    /// Nice to know.
    case low
    /// Worth a look.
    case medium
    /// Act on it.
    case high

    private var rank: Int {
      switch self {
      case .low: 0
      case .medium: 1
      case .high: 2
      }
    }

    /// - Complexity: O(1).
    public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rank < rhs.rank }
  }

  /// Unique across devices and the backend.
  public var id: UUID
  /// The headline.
  public var title: String
  /// The text.
  public var body: String
  /// When it was generated.
  public var date: Date
  /// How urgent it is.
  public var priority: Priority

  /// Makes an insight.
  ///
  /// - Complexity: O(1).
  public init(id: UUID, title: String, body: String, date: Date, priority: Priority) {
    self.id = id
    self.title = title
    self.body = body
    self.date = date
    self.priority = priority
  }
}
