import Foundation
import WeftDependencies
import WeftNetworking

/// Open-Meteo's geocoding answer: the places a query matches.
///
/// - Note: Isolation: a `Sendable` value.
/// - Complexity: O(n) to copy, n = results.
public struct GeocodingSearch: Codable, Equatable, Sendable {
  /// The places found.
  public var results: [Result]
  /// Makes an answer.
  public init(results: [Result]) { self.results = results }

  /// One place.
  public struct Result: Codable, Equatable, Identifiable, Sendable {
    public var country: String
    public var latitude: Double
    public var longitude: Double
    public var id: Int
    public var name: String
    public var admin1: String?
    /// Makes a place.
    public init(
      country: String, latitude: Double, longitude: Double, id: Int, name: String,
      admin1: String? = nil
    ) {
      (self.country, self.latitude, self.longitude) = (country, latitude, longitude)
      (self.id, self.name, self.admin1) = (id, name, admin1)
    }
  }
}

/// Open-Meteo's daily forecast: parallel arrays of days and their temperatures.
///
/// - Note: Isolation: a `Sendable` value.
/// - Complexity: O(d) to copy, d = days.
public struct Forecast: Codable, Equatable, Sendable {
  public var daily: Daily
  public var dailyUnits: DailyUnits
  /// Makes a forecast.
  public init(daily: Daily, dailyUnits: DailyUnits) {
    (self.daily, self.dailyUnits) = (daily, dailyUnits)
  }
  enum CodingKeys: String, CodingKey {
    case daily
    case dailyUnits = "daily_units"
  }

  /// The days' temperatures, index by index with `time`.
  public struct Daily: Codable, Equatable, Sendable {
    public var temperatureMax: [Double]
    public var temperatureMin: [Double]
    public var time: [Date]
    /// Makes the days.
    public init(temperatureMax: [Double], temperatureMin: [Double], time: [Date]) {
      (self.temperatureMax, self.temperatureMin, self.time) = (temperatureMax, temperatureMin, time)
    }
    enum CodingKeys: String, CodingKey {
      case temperatureMax = "temperature_2m_max"
      case temperatureMin = "temperature_2m_min"
      case time
    }
  }

  /// The temperatures' units ("°C").
  public struct DailyUnits: Codable, Equatable, Sendable {
    public var temperatureMax: String
    public var temperatureMin: String
    /// Makes the units.
    public init(temperatureMax: String, temperatureMin: String) {
      (self.temperatureMax, self.temperatureMin) = (temperatureMax, temperatureMin)
    }
    enum CodingKeys: String, CodingKey {
      case temperatureMax = "temperature_2m_max"
      case temperatureMin = "temperature_2m_min"
    }
  }
}

/// The weather API the search calls (TCA's `WeatherClient`): the effects call its two
/// endpoints; tests give their own.
///
/// - Note: Isolation: a `Sendable` value; the endpoints run on the caller's task.
/// - Complexity: one request per call.
public struct WeatherClient: Sendable {
  /// The daily forecast at a place.
  public var forecast: @Sendable (GeocodingSearch.Result) async throws -> Forecast
  /// The places whose name matches a query.
  public var search: @Sendable (String) async throws -> GeocodingSearch

  /// The client over HTTP, in Open-Meteo's format: `geocoding` serves `GET /v1/search?name=`
  /// (geocoding-api.open-meteo.com), `forecasts` serves `GET /v1/forecast` (api.open-meteo.com).
  /// Both clients decode with `coding` (dates as seconds since 1970: `timeformat=unixtime`).
  public static func live(geocoding: HTTPClient, forecasts: HTTPClient) -> WeatherClient {
    WeatherClient(
      forecast: { place in
        try await forecasts.send(
          Endpoint<Forecast>(
            .get, "/v1/forecast",
            query: [
              QueryItem("latitude", "\(place.latitude)"),
              QueryItem("longitude", "\(place.longitude)"),
              QueryItem("daily", "temperature_2m_max,temperature_2m_min"),
              QueryItem("timeformat", "unixtime"), QueryItem("timezone", "GMT"),
            ]))
      },
      search: { query in
        try await geocoding.send(
          Endpoint<GeocodingSearch>(.get, "/v1/search", query: [QueryItem("name", query)]))
      })
  }

  /// What `live` expects of its clients' JSON: Unix-time dates.
  public static let coding = JSONCoding(dates: .secondsSince1970)
}

enum WeatherClientKey: DependencyKey {
  static let liveValue = WeatherClient.live(
    geocoding: HTTPClient(
      baseURL: URL(string: "https://geocoding-api.open-meteo.com")!,
      transport: URLSessionTransport(), coding: WeatherClient.coding),
    forecasts: HTTPClient(
      baseURL: URL(string: "https://api.open-meteo.com")!, transport: URLSessionTransport(),
      coding: WeatherClient.coding))
  static let testValue = WeatherClient(
    forecast: unimplemented("WeatherClient.forecast"), search: unimplemented("WeatherClient.search")
  )
}

extension DependencyValues {
  /// The weather API (live: Open-Meteo; in tests: unimplemented).
  public var weatherClient: WeatherClient {
    get { self[WeatherClientKey.self] }
    set { self[WeatherClientKey.self] = newValue }
  }
}
