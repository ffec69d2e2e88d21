import Foundation
import Testing

@testable import SimulatorKit
@testable import SimulatorReports

@Suite("ReportUnits")
struct ReportUnitsTests {
  @Test func durationsPickTheLargestUnitWithThreeSignificantDigits() {
    #expect(ReportUnits.duration(nanoseconds: UInt64(0)) == "0 ns")
    #expect(ReportUnits.duration(nanoseconds: UInt64(850)) == "850 ns")
    #expect(ReportUnits.duration(nanoseconds: UInt64(1_000)) == "1.00 µs")
    #expect(ReportUnits.duration(nanoseconds: UInt64(18_240)) == "18.2 µs")
    #expect(ReportUnits.duration(nanoseconds: UInt64(412_000_000)) == "412 ms")
    #expect(ReportUnits.duration(nanoseconds: UInt64(4_560_000)) == "4.56 ms")
    #expect(ReportUnits.duration(nanoseconds: UInt64(1_234_000_000)) == "1.23 s")
    #expect(ReportUnits.duration(nanoseconds: 0.42) == "0.42 ns")
  }

  @Test func roundingUpMovesToTheNextUnit() {
    #expect(ReportUnits.duration(nanoseconds: UInt64(999_999)) == "1.00 ms")
    #expect(ReportUnits.duration(nanoseconds: 999.7) == "1.00 µs")
  }

  @Test func bytesUseBinaryUnits() {
    #expect(ReportUnits.bytes(UInt64(512)) == "512 B")
    #expect(ReportUnits.bytes(UInt64(12_800)) == "12.5 KiB")
    #expect(ReportUnits.bytes(UInt64(503_316_480)) == "480 MiB")
    #expect(ReportUnits.bytes(491.5) == "492 B")
    #expect(ReportUnits.bytes(UInt64(3) << 30) == "3.00 GiB")
  }

  @Test func countsGroupThousands() {
    #expect(ReportUnits.count(0) == "0")
    #expect(ReportUnits.count(999) == "999")
    #expect(ReportUnits.count(1_000) == "1,000")
    #expect(ReportUnits.count(100_000) == "100,000")
    #expect(ReportUnits.count(1_234_567) == "1,234,567")
  }

  @Test func fixedAndSignificantNeverUseExponentsOrLocales() {
    #expect(ReportUnits.fixed(1.005, decimals: 0) == "1")
    #expect(ReportUnits.fixed(-2.5, decimals: 1) == "-2.5")
    #expect(ReportUnits.fixed(-0.01, decimals: 1) == "0.0")
    #expect(ReportUnits.fixed(0.05, decimals: 2) == "0.05")
    #expect(ReportUnits.significant(123.4) == "123")
    #expect(ReportUnits.significant(12.34) == "12.3")
    #expect(ReportUnits.significant(.nan) == "nan")
    #expect(ReportUnits.perSecond(82.9) == "82.9/s")
    #expect(ReportUnits.perSecond(12_345) == "12,345/s")
    #expect(ReportUnits.ratio(1.4249) == "1.42×")
  }

  @Test func timestampsAreUTCSecondsAndParseBack() {
    #expect(TimestampFormat.iso8601(ReportFixtures.date) == "2026-05-01T10:00:00Z")
    #expect(TimestampFormat.iso8601(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
    #expect(
      TimestampFormat.iso8601(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
    #expect(TimestampFormat.parse("2026-05-01T10:00:00Z") == ReportFixtures.date)
    #expect(
      TimestampFormat.parse("2000-02-29T00:00:00Z") == Date(timeIntervalSince1970: 951_782_400))
    #expect(TimestampFormat.parse("2026-13-01T10:00:00Z") == nil)
    #expect(TimestampFormat.parse("yesterday") == nil)
  }
}
