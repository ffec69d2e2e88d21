import CaseStudies
import Foundation
import Testing

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

extension WeatherClient {
  /// A client whose endpoints record an issue naming themselves unless the test gives them.
  static func unimplemented(
    forecast: (@Sendable (GeocodingSearch.Result) async throws -> Forecast)? = nil,
    search: (@Sendable (String) async throws -> GeocodingSearch)? = nil
  ) -> WeatherClient {
    WeatherClient(
      forecast: forecast ?? { _ in
        Issue.record("WeatherClient.forecast was called, and the test did not give it")
        throw SomethingWentWrong()
      },
      search: search ?? { _ in
        Issue.record("WeatherClient.search was called, and the test did not give it")
        throw SomethingWentWrong()
      })
  }
}

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
