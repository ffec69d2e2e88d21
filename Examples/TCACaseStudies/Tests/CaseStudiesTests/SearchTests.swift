import CaseStudies
import Foundation
import Synchronization
import Testing
import WeftCore
import WeftDependencies
import WeftTesting

/// TCA's `SearchTests`, ported test for test, plus the same place tapped twice. TCA's view
/// debounces the query (`.task(id:)`) and its tests send `.searchQueryChangeDebounced`
/// themselves; here the debounce is the feature's, so the tests type, advance 300 ms and
/// receive it.
@MainActor
struct SearchTests {
  let clock = TestClock()

  func makeStore(
    _ initial: Search.State = Search.State(),
    dependencies: @escaping (inout DependencyValues) -> Void
  ) -> TestStore<Search.State, Search.Event> {
    TestStore(
      initial: initial, reduce: Search.reduce, feedbacks: Search.feedbacks, clock: clock,
      dependencies: dependencies)
  }

  /// The weather TCA's tests expect from `Forecast.mock` at place `id`.
  static func mockWeather(id: Int) -> Search.State.Weather {
    Search.State.Weather(
      id: id,
      days: [
        .init(
          date: Date(timeIntervalSince1970: 0), temperatureMax: 90, temperatureMaxUnit: "°F",
          temperatureMin: 70, temperatureMinUnit: "°F"),
        .init(
          date: Date(timeIntervalSince1970: 86_400), temperatureMax: 70, temperatureMaxUnit: "°F",
          temperatureMin: 50, temperatureMinUnit: "°F"),
        .init(
          date: Date(timeIntervalSince1970: 172_800), temperatureMax: 100,
          temperatureMaxUnit: "°F", temperatureMin: 80, temperatureMinUnit: "°F"),
      ])
  }

  static let specialResult = GeocodingSearch.Result(
    country: "Special Country", latitude: 0, longitude: 0, id: 42, name: "Special Place")

  @Test func searchAndClearQuery() async {
    let store = makeStore(dependencies: { $0.weatherClient.search = { _ in .mock } })

    store.send(.searchQueryChanged("S"), effects: .started("debounce")) { $0.searchQuery = "S" }
    await clock.advance(by: .milliseconds(300))
    await store.receive(.searchQueryChangeDebounced, effects: .started("search"))
    await store.receive(.searchResponse(.success(.mock))) {
      $0.results = GeocodingSearch.mock.results
    }
    store.send(.searchQueryChanged(""), effects: .nothing) {
      $0.results = []
      $0.searchQuery = ""
    }
    await store.finish()
  }

  @Test func searchFailure() async {
    let store = makeStore(dependencies: {
      $0.weatherClient.search = { _ in throw SomethingWentWrong() }
    })

    store.send(.searchQueryChanged("S"), effects: .started("debounce")) { $0.searchQuery = "S" }
    await clock.advance(by: .milliseconds(300))
    await store.receive(.searchQueryChangeDebounced, effects: .started("search"))
    await store.receive(.searchResponse(.failure(APIError("SomethingWentWrong()"))))
    await store.finish()
  }

  @Test func clearQueryCancelsInFlightSearchRequest() async {
    let clock = self.clock
    let store = makeStore(
      dependencies: {
        $0.weatherClient.search = { _ in
          try await clock.sleep(for: .seconds(1))  // in flight for a second
          return .mock
        }
      })

    store.send(.searchQueryChanged("S"), effects: .started("debounce")) { $0.searchQuery = "S" }
    await clock.advance(by: .milliseconds(300))
    await store.receive(.searchQueryChangeDebounced, effects: .started("search"))
    store.send(.searchQueryChanged(""), effects: .cancelled("search")) { $0.searchQuery = "" }
    await clock.advance(by: .seconds(1))  // a search not cancelled would answer now
    await store.finish()
  }

  @Test func tapOnLocation() async {
    var results = GeocodingSearch.mock.results
    results.append(Self.specialResult)
    let store = makeStore(
      Search.State(results: results), dependencies: { $0.weatherClient.forecast = { _ in .mock } })

    store.send(.searchResultTapped(Self.specialResult), effects: .started("forecast")) {
      $0.resultForecastRequestInFlight = Self.specialResult
    }
    await store.receive(.forecastResponse(42, .success(.mock))) {
      $0.resultForecastRequestInFlight = nil
      $0.weather = Self.mockWeather(id: 42)
    }
    await store.finish()
  }

  @Test func tapOnLocationCancelsInFlightRequest() async {
    var results = GeocodingSearch.mock.results
    results.append(Self.specialResult)
    let clock = self.clock
    let store = makeStore(
      Search.State(results: results),
      dependencies: {
        $0.weatherClient.forecast = { _ in
          try await clock.sleep(for: .seconds(0))
          return .mock
        }
      })

    store.send(.searchResultTapped(results[0]), effects: .started("forecast")) {
      $0.resultForecastRequestInFlight = results[0]
    }
    await clock.expectSleepers(count: 1)  // the first request is in flight, asleep in the API
    store.send(
      .searchResultTapped(Self.specialResult), effects: .started("forecast").cancelling("forecast")
    ) {
      $0.resultForecastRequestInFlight = Self.specialResult
    }
    await clock.advance()
    await store.receive(.forecastResponse(42, .success(.mock))) {
      $0.resultForecastRequestInFlight = nil
      $0.weather = Self.mockWeather(id: 42)
    }
    await store.finish()
  }

  @Test func tapOnLocationFailure() async {
    let results = GeocodingSearch.mock.results
    let store = makeStore(
      Search.State(results: results),
      dependencies: { $0.weatherClient.forecast = { _ in throw SomethingWentWrong() } })

    store.send(.searchResultTapped(results[0]), effects: .started("forecast")) {
      $0.resultForecastRequestInFlight = results[0]
    }
    await store.receive(.forecastResponse(1, .failure(APIError("SomethingWentWrong()")))) {
      $0.resultForecastRequestInFlight = nil
    }
    await store.finish()
  }

  /// New: TCA's `cancelInFlight: true` restarts the forecast when the same place is tapped
  /// again; the answer is the second request's (its day is dated when it answered: t+1.5 s, where the first would have said t+1 s).
  @Test func tapOnTheSameLocationTwiceRestartsTheForecast() async {
    let clock = self.clock
    let place = GeocodingSearch.mock.results[0]
    let store = makeStore(
      Search.State(results: GeocodingSearch.mock.results),
      dependencies: {
        $0.weatherClient.forecast = { _ in
          try await clock.sleep(for: .seconds(1))
          var forecast = Forecast.mock
          forecast.daily.time = [Date(timeIntervalSince1970: clock.now.offset / .seconds(1))]
          forecast.daily.temperatureMax = [90]
          forecast.daily.temperatureMin = [70]
          return forecast
        }
      })

    store.send(.searchResultTapped(place), effects: .started("forecast")) {
      $0.resultForecastRequestInFlight = place
    }
    await clock.advance(by: .milliseconds(500))
    store.send(.searchResultTapped(place), effects: .started("forecast").cancelling("forecast"))
    await clock.advance(by: .milliseconds(500))  // the first request would have answered now
    await clock.advance(by: .milliseconds(500))
    var answer = Forecast.mock
    answer.daily.time = [Date(timeIntervalSince1970: 1.5)]
    (answer.daily.temperatureMax, answer.daily.temperatureMin) = ([90], [70])
    await store.receive(.forecastResponse(1, .success(answer))) {
      $0.resultForecastRequestInFlight = nil
      $0.weather = Search.State.Weather(id: 1, days: [Self.mockWeather(id: 1).days[0]])
      $0.weather?.days[0].date = Date(timeIntervalSince1970: 1.5)
    }
    await store.finish()
  }

  /// New: an endpoint the test did not give fails the test with its name (the
  /// `weatherClient` dependency's test value is unimplemented), and the feature sees an error.
  @Test func aForecastTheTestDidNotGiveFailsNamingTheEndpoint() async {
    let failures = Mutex<[String]>([])
    let place = GeocodingSearch.mock.results[0]
    let store = TestStore(
      initial: Search.State(results: GeocodingSearch.mock.results), reduce: Search.reduce,
      feedbacks: Search.feedbacks, clock: clock,
      failure: { failure in failures.withLock { $0.append(failure.message) } })

    store.send(.searchResultTapped(place), effects: .started("forecast")) {
      $0.resultForecastRequestInFlight = place
    }
    await store.receive(
      .forecastResponse(1, .failure(APIError("unimplemented: WeatherClient.forecast")))
    ) {
      $0.resultForecastRequestInFlight = nil
    }
    await store.finish()
    #expect(
      failures.withLock { $0 } == [
        "Unimplemented: 'WeatherClient.forecast' was called, and this test did not override it. "
          + "Give it a test value for this test (the .dependencies trait, withDependencies), "
          + "this TestStore (TestStore(…, dependencies: { $0… = … })) or this feedback system."
      ])
  }
}
