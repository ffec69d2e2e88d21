import Foundation
import HealthDomain
import Testing

@Suite("DateRange")
struct DateRangeTests {
  private func iso(_ text: String) -> Date { HealthAPI.parseQueryDate(text)! }

  @Test func dayStartsAtMidnightUTC() {
    let interval = DateRange.day.interval(relativeTo: referenceDate)
    #expect(interval.start == iso("2024-06-01T00:00:00Z"))
    #expect(interval.end == referenceDate)
  }

  @Test func weekIsTheSevenDaysBefore() {
    let interval = DateRange.week.interval(relativeTo: referenceDate)
    #expect(interval.start == iso("2024-05-25T12:00:00Z"))
    #expect(interval.end == referenceDate)
  }

  @Test func monthIsTheCalendarMonthBefore() {
    #expect(
      DateRange.month.interval(relativeTo: referenceDate).start == iso("2024-05-01T12:00:00Z"))
    // March 31 minus a month clamps to the last day of February (leap year).
    let march31 = iso("2024-03-31T08:00:00Z")
    #expect(DateRange.month.interval(relativeTo: march31).start == iso("2024-02-29T08:00:00Z"))
  }

  @Test func customIsOrdered() {
    let a = iso("2024-01-10T00:00:00Z")
    let b = iso("2024-01-20T00:00:00Z")
    #expect(DateRange.custom(from: b, to: a).interval(relativeTo: referenceDate).start == a)
    #expect(DateRange.custom(from: a, to: b).interval(relativeTo: referenceDate).end == b)
    #expect(DateRange.custom(from: a, to: b).name == "custom")
  }

  @Test func dayHonoursTheInjectedCalendar() {
    var tokyo = HealthCalendar.utc
    tokyo.timeZone = TimeZone(identifier: "Asia/Tokyo")!
    // 12:00Z is 21:00 in Tokyo; the Tokyo day started at 15:00Z the day before.
    #expect(
      DateRange.day.interval(relativeTo: referenceDate, calendar: tokyo).start
        == iso("2024-05-31T15:00:00Z"))
  }

  @Test func rangesCode() throws {
    let ranges: [DateRange] = [
      .day, .week, .month, .custom(from: referenceDate, to: referenceDate),
    ]
    let data = try JSONEncoder().encode(ranges)
    #expect(try JSONDecoder().decode([DateRange].self, from: data) == ranges)
  }
}
