import CaseStudies
import Foundation
import WeftDependencies

/// Suspends until its task is cancelled, then throws `CancellationError` (TCA's
/// `Task.never()`): an API call that never answers.
func suspendUntilCancelled<Answer>() async throws -> Answer {
  let (stream, continuation) = AsyncStream<Never>.makeStream()
  for await _ in stream {}  // ends only when the task is cancelled: `continuation` lives on
  continuation.finish()
  throw CancellationError()
}

/// An error an API stub throws.
struct SomethingWentWrong: Error {}

extension GeocodingSearch {
  /// Three places (TCA's `GeocodingSearch.mock`).
  static let mock = GeocodingSearch(results: [
    Result(
      country: "United States", latitude: 40.6782, longitude: -73.9442, id: 1, name: "Brooklyn"),
    Result(
      country: "United States", latitude: 34.0522, longitude: -118.2437, id: 2, name: "Los Angeles"),
    Result(
      country: "United States", latitude: 37.7749, longitude: -122.4194, id: 3,
      name: "San Francisco"),
  ])
}

extension Forecast {
  /// Three days in °F (TCA's `Forecast.mock`).
  static let mock = Forecast(
    daily: Daily(
      temperatureMax: [90, 70, 100], temperatureMin: [70, 50, 80],
      time: [0, 86_400, 172_800].map(Date.init(timeIntervalSince1970:))),
    dailyUnits: DailyUnits(temperatureMax: "°F", temperatureMin: "°F"))
}

extension UUID {
  /// The `n`th id the test `uuid` dependency gives, from 0 (TCA's `UUID(0)`).
  init(_ n: Int) { self.init(counting: UInt64(n)) }
}
