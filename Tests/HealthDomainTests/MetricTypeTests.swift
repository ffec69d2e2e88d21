import Foundation
import HealthDomain
import Testing

@Suite("MetricType")
struct MetricTypeTests {
  @Test func rawValuesAreTheCaseNames() {
    let names = MetricType.allCases.map(\.rawValue)
    #expect(
      names == [
        "heartRate", "restingHeartRate", "steps", "bloodOxygen", "bodyTemperature",
        "respiratoryRate", "sleepDuration", "sleepDeep", "sleepREM", "sleepLight", "sleepAwake",
        "activeCalories", "distance", "heartRateVariability",
      ])
    for type in MetricType.allCases {
      #expect(String(describing: type) == type.rawValue)
    }
  }

  @Test func rangesAreTheClarityRanges() {
    let expected: [MetricType: ClosedRange<Double>] = [
      .heartRate: 30...220, .restingHeartRate: 40...100, .steps: 0...100_000,
      .bloodOxygen: 70...100, .bodyTemperature: 95...105, .respiratoryRate: 8...30,
      .sleepDuration: 0...24, .sleepDeep: 0...12, .sleepREM: 0...12, .sleepLight: 0...12,
      .sleepAwake: 0...12, .activeCalories: 0...5000, .distance: 0...100,
      .heartRateVariability: 0...200,
    ]
    for type in MetricType.allCases { #expect(type.validRange == expected[type], "\(type)") }
  }

  @Test func everyTypeHasAUnitAndAName() {
    for type in MetricType.allCases {
      #expect(!type.unit.isEmpty)
      #expect(!type.displayName.isEmpty)
    }
    #expect(MetricType.heartRate.unit == "bpm")
    #expect(MetricType.bodyTemperature.unit == "°F")
    #expect(MetricType.sleepREM.displayName == "REM sleep")
    #expect(MetricType.allCases.filter(\.isSleep).count == 5)
  }

  @Test func formatDropsTrailingZeros() {
    #expect(MetricType.format(72) == "72")
    #expect(MetricType.format(98.6) == "98.6")
    #expect(MetricType.format(100_000) == "100000")
    #expect(MetricType.format(-1) == "-1")
  }

  @Test func codesAsItsRawValue() throws {
    let data = try JSONEncoder().encode([MetricType.sleepREM])
    #expect(String(decoding: data, as: UTF8.self) == #"["sleepREM"]"#)
  }
}
