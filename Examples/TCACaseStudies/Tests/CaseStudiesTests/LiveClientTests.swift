import CaseStudies
import Foundation
import Testing
import WeftNetworking

/// The live API clients against a real loopback server in Open-Meteo's and numbersapi.com's
/// formats (`Fixtures/api_server.py`): the requests they build and the answers they decode.
/// The ported TCA tests give the features their own clients, as TCA's do; these test the
/// clients themselves.
struct LiveClientTests {
  static func http(_ server: APIServer) -> HTTPClient {
    HTTPClient(
      baseURL: server.baseURL, transport: URLSessionTransport(), coding: WeatherClient.coding,
      defaultTimeout: .seconds(30))
  }

  @Test func theWeatherClientSearchesAndLoadsAForecast() async throws {
    try await APIServer.with { server in
      let weather = WeatherClient.live(geocoding: Self.http(server), forecasts: Self.http(server))
      let found = try await weather.search("pari")
      #expect(found.results.map(\.id) == [2_988_507, 4_717_560])
      #expect(found.results.first?.admin1 == "Île-de-France")
      #expect(found.results.last?.admin1 == nil)

      let forecast = try await weather.forecast(found.results[0])
      #expect(forecast.daily.temperatureMax == [4.9, 7.5, 8.0])  // latitude / 10: it was sent
      #expect(forecast.daily.temperatureMin == [1.0, 2.5, 3.0])
      #expect(
        forecast.daily.time
          == [1_733_529_600, 1_733_616_000, 1_733_702_400].map(Date.init(timeIntervalSince1970:)))
      #expect(
        forecast.dailyUnits == Forecast.DailyUnits(temperatureMax: "°C", temperatureMin: "°C"))
    }
  }

  @Test func aSearchThatFindsNothingIsAnError() async throws {
    try await APIServer.with { server in
      let weather = WeatherClient.live(geocoding: Self.http(server), forecasts: Self.http(server))
      // Open-Meteo leaves `results` out when nothing matches; the client says so.
      await #expect(throws: NetworkError.self) { try await weather.search("atlantis") }
    }
  }

  @Test func theFactClientFetchesAFact() async throws {
    try await APIServer.with { server in
      let facts = FactClient.live(http: Self.http(server))
      let (positive, negative) = (try await facts.fetch(42), try await facts.fetch(-3))
      #expect(positive == "42 is the number of the test")
      #expect(negative == "-3 is the number of the test")
    }
  }
}
