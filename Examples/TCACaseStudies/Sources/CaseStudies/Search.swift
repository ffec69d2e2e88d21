import Foundation
import WeftCore
import WeftDependencies
import WeftFeedback

/// TCA's Search example in Weft: typing a query searches places once typing pauses for
/// 300 ms, clearing it cancels the search in flight, and tapping a place loads its forecast —
/// a new tap restarts the forecast, even on the same place. The requests run by id: no field
/// of the state exists only to cancel one.
///
/// - Note: Isolation: values and pure functions; the system runs them on its host.
/// - Complexity: O(r) per event, r = results shown; O(d) per forecast, d = days.
public enum Search {
  /// What the screen shows.
  public struct State: Equatable, Sendable {
    /// The places the query found.
    public var results: [GeocodingSearch.Result] = []
    /// The place whose forecast is loading (the screen shows a progress view by it).
    public var resultForecastRequestInFlight: GeocodingSearch.Result?
    /// The query typed.
    public var searchQuery = ""
    /// The forecast shown under its place.
    public var weather: Weather?
    /// Makes the screen's state.
    public init(results: [GeocodingSearch.Result] = [], searchQuery: String = "") {
      (self.results, self.searchQuery) = (results, searchQuery)
    }

    /// A place's forecast, day by day.
    public struct Weather: Equatable, Sendable {
      public var id: GeocodingSearch.Result.ID
      public var days: [Day]
      /// Makes a forecast.
      public init(id: GeocodingSearch.Result.ID, days: [Day]) { (self.id, self.days) = (id, days) }

      /// One day's temperatures.
      public struct Day: Equatable, Sendable {
        public var date: Date
        public var temperatureMax: Double
        public var temperatureMaxUnit: String
        public var temperatureMin: Double
        public var temperatureMinUnit: String
        /// Makes a day.
        public init(
          date: Date, temperatureMax: Double, temperatureMaxUnit: String, temperatureMin: Double,
          temperatureMinUnit: String
        ) {
          (self.date, self.temperatureMax, self.temperatureMaxUnit) =
            (date, temperatureMax, temperatureMaxUnit)
          (self.temperatureMin, self.temperatureMinUnit) = (temperatureMin, temperatureMinUnit)
        }
      }
    }
  }

  /// What happens on the screen.
  public enum Event: Equatable, Sendable {
    case forecastResponse(GeocodingSearch.Result.ID, Result<Forecast, APIError>)
    case searchQueryChanged(String)
    case searchQueryChangeDebounced
    case searchResponse(Result<GeocodingSearch, APIError>)
    case searchResultTapped(GeocodingSearch.Result)
  }

  enum EffectID { case location, weather }

  /// Applies one event.
  ///
  /// - Complexity: O(r + d), r = results, d = forecast days.
  public static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .forecastResponse(_, .failure):
      state.weather = nil
      state.resultForecastRequestInFlight = nil
    case .forecastResponse(let id, .success(let forecast)):
      state.weather = State.Weather(
        id: id,
        days: forecast.daily.time.indices.map {
          State.Weather.Day(
            date: forecast.daily.time[$0],
            temperatureMax: forecast.daily.temperatureMax[$0],
            temperatureMaxUnit: forecast.dailyUnits.temperatureMax,
            temperatureMin: forecast.daily.temperatureMin[$0],
            temperatureMinUnit: forecast.dailyUnits.temperatureMin)
        })
      state.resultForecastRequestInFlight = nil
    case .searchQueryChanged(let query):
      state.searchQuery = query
      if query.isEmpty { (state.results, state.weather) = ([], nil) }
    case .searchQueryChangeDebounced: break
    case .searchResponse(.failure): state.results = []
    case .searchResponse(.success(let response)): state.results = response.results
    case .searchResultTapped(let location): state.resultForecastRequestInFlight = location
    }
  }

  /// The debounce (300 ms of quiet on the `continuousClock` after the last keystroke), the
  /// search — cancelled when the query is cleared — and the forecast, restarted by every tap,
  /// on the `weatherClient` dependency.
  ///
  /// - Complexity: O(1) per event; one request per search or tap.
  public static let feedbacks: [Feedback<State, Event>] = [
    .lensingSkippingRepeated(state: { $0.searchQuery.isEmpty ? nil : $0.searchQuery }) { _ in
      @Dependency(\.continuousClock) var clock
      do { try await clock.sleep(for: .milliseconds(300)) } catch { return nil }
      return .searchQueryChangeDebounced
    }.named("debounce"),
    .cancellable { event, state in
      switch event {
      case .searchQueryChanged(""): .cancel(id: EffectID.location)
      case .searchQueryChangeDebounced where !state.searchQuery.isEmpty:
        .run(id: EffectID.location) { [query = state.searchQuery] in
          @Dependency(\.weatherClient) var weatherClient
          return .searchResponse(await APIError.result { try await weatherClient.search(query) })
        }
      default: nil
      }
    }.named("search"),
    .cancellable { event, _ in
      switch event {
      case .searchResultTapped(let location):
        .run(id: EffectID.weather, cancelInFlight: true) {
          @Dependency(\.weatherClient) var weatherClient
          return .forecastResponse(
            location.id, await APIError.result { try await weatherClient.forecast(location) })
        }
      default: nil
      }
    }.named("forecast"),
  ]
}
