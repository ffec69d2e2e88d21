import CaseStudies
import Foundation
import WeftNetworking

/// The APIs the case studies call, served in-process by WeftNetworking's `SimulatedTransport`
/// in Open-Meteo's and numbersapi.com's JSON: the features run their live clients (real
/// `HTTPClient`s, endpoints and decoding) against it, with `latency` on the app's clock.
///
/// - Note: Isolation: a `Sendable` value; the transport is thread-safe.
/// - Complexity: O(p) per search, p = places; O(1) per forecast or fact.
struct SimulatedAPI {
  /// The places the geocoding search knows, by id.
  static let places: [GeocodingSearch.Result] = [
    .init(
      country: "United States", latitude: 40.6782, longitude: -73.9442, id: 1, name: "Brooklyn"),
    .init(
      country: "United States", latitude: 34.0522, longitude: -118.2437, id: 2, name: "Los Angeles"),
    .init(
      country: "United States", latitude: 37.7749, longitude: -122.4194, id: 3,
      name: "San Francisco"),
    .init(country: "France", latitude: 48.8566, longitude: 2.3522, id: 4, name: "Paris"),
  ]

  let transport: SimulatedTransport

  init(clock: any Clock<Duration>, latency: Duration) {
    transport = SimulatedTransport(seed: 1, clock: clock, latency: .fixed(latency))
    transport.route(.get, "/v1/search") { request in
      let name = request.query["name", default: ""].lowercased()
      return try .json(
        GeocodingSearch(results: Self.places.filter { $0.name.lowercased().contains(name) }),
        coding: WeatherClient.coding)
    }
    // Three days from 1970-01-01; the temperatures say which place they are for (id 2: 22/12).
    transport.route(.get, "/v1/forecast") { request in
      let latitude = Double(request.query["latitude", default: ""]) ?? .nan
      let id = Double(Self.places.first { $0.latitude == latitude }?.id ?? 0)
      let forecast = Forecast(
        daily: .init(
          temperatureMax: [20 + id, 21 + id, 22 + id], temperatureMin: [10 + id, 11 + id, 12 + id],
          time: [0, 86_400, 172_800].map(Date.init(timeIntervalSince1970:))),
        dailyUnits: .init(temperatureMax: "°C", temperatureMin: "°C"))
      return try .json(forecast, coding: WeatherClient.coding)
    }
    transport.route(.get, "/{number}") { request in
      struct Fact: Encodable { var text: String }
      let number = request.parameters["number", default: "?"]
      return try .json(Fact(text: "\(number) is a good number"))
    }
  }

  /// An HTTP client of the simulated API at `host` (the transport routes by path only).
  func client(host: String, clock: any Clock<Duration>) -> HTTPClient {
    HTTPClient(
      baseURL: URL(string: "https://\(host)")!, transport: transport, clock: clock,
      coding: WeatherClient.coding)
  }
}
