import Foundation

/// The period the dashboard shows: today, the last week, the last month, or custom bounds.
///
/// ```swift
/// let reference = Date(timeIntervalSince1970: 1_717_243_200)   // 2024-06-01T12:00:00Z
/// DateRange.day.interval(relativeTo: reference)
/// // 2024-06-01T00:00:00Z ... 2024-06-01T12:00:00Z
/// DateRange.week.interval(relativeTo: reference)
/// // 2024-05-25T12:00:00Z ... 2024-06-01T12:00:00Z
/// ```
///
/// Ranges resolve against an injected reference date and calendar (UTC by default), never
/// against `Date()`, so tests and the simulator get the same intervals on every machine.
/// Both bounds are inclusive.
///
/// - Complexity: `interval` is O(1).
/// - Note: Isolation: a `Sendable` value; any isolation.
/// - Note: Allocations: none.
public enum DateRange: Sendable, Hashable, Codable {
  /// From the start of the reference date's day to the reference date.
  case day
  /// The seven days before the reference date.
  case week
  /// The calendar month before the reference date (same day of the previous month).
  case month
  /// From `from` to `to` (swapped when given in the wrong order).
  case custom(from: Date, to: Date)

  /// The inclusive interval this range covers, seen from `reference`.
  ///
  /// - Parameters:
  ///   - reference: "now" for the range (injected: the clock's date).
  ///   - calendar: the calendar days and months are counted in (`HealthCalendar.utc`).
  /// - Complexity: O(1).
  public func interval(
    relativeTo reference: Date, calendar: Calendar = HealthCalendar.utc
  ) -> DateInterval {
    switch self {
    case .day:
      return DateInterval(start: calendar.startOfDay(for: reference), end: reference)
    case .week:
      let start = calendar.date(byAdding: .day, value: -7, to: reference) ?? reference
      return DateInterval(start: start, end: reference)
    case .month:
      let start = calendar.date(byAdding: .month, value: -1, to: reference) ?? reference
      return DateInterval(start: start, end: reference)
    case .custom(let from, let to):
      return DateInterval(start: min(from, to), end: max(from, to))
    }
  }

  /// Every case's `name`, in declaration order.
  public static let names = ["day", "week", "month", "custom"]

  /// `day`, `week`, `month` or `custom`, for reports and scripts.
  public var name: String {
    switch self {
    case .day: "day"
    case .week: "week"
    case .month: "month"
    case .custom: "custom"
    }
  }
}

/// The calendar the health features count days in.
///
/// - Note: Isolation: `Calendar` is a `Sendable` value.
public enum HealthCalendar {
  /// The Gregorian calendar in UTC: deterministic on every machine.
  public static let utc: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
  }()
}
