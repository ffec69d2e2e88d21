import Foundation
import WeftNetworking

/// The backend contract of the health app: every path, request and response body, and the
/// typed `Endpoint`s the features send through an `HTTPClient`.
///
/// ```swift
/// let client = HTTPClient(baseURL: base, transport: transport, coding: HealthAPI.coding)
/// let session = try await client.send(HealthAPI.login(email: "ada@example.com", password: "pw"))
/// let remote = try await client.send(HealthAPI.metrics(in: interval))
/// ```
///
/// A simulated backend routes the same paths (`HealthAPI.Path`) and answers with the same
/// DTOs, encoded with `HealthAPI.coding`, so the live and simulated configurations exchange
/// identical bytes.
///
/// | call | method and path | body → response | errors |
/// |---|---|---|---|
/// | `login` | `POST /auth/login` | `Credentials` → `Session` | 401 `invalid_credentials`, 403 `email_not_verified` |
/// | `refresh` | `POST /auth/refresh` | `RefreshRequest` → `Session` | 401 `invalid_token` |
/// | `logout` | `POST /auth/logout` | none → `NoContent` | |
/// | `metrics` | `GET /metrics?from&to` | none → `[MetricDTO]` | |
/// | `upsertMetric` | `PUT /metrics/{id}` + `Idempotency-Key` | `MetricDTO` → `MetricDTO` | |
/// | `deleteMetric` | `DELETE /metrics/{id}` + `Idempotency-Key` | none → `NoContent` | |
/// | `insights` | `GET /insights?limit` | none → `[InsightDTO]` | |
///
/// - Complexity: building an endpoint is O(1) plus its body's size when sent.
/// - Note: Isolation: a namespace of `Sendable` values; any isolation.
public enum HealthAPI {
  /// JSON as the health backend speaks it: default keys, ISO 8601 dates with fractional
  /// seconds (decoding also accepts them without). Give it to the `HTTPClient` and to the
  /// simulated backend's `.json(…, coding:)` and `decodeBody(…, coding:)`.
  public static let coding = JSONCoding(dates: .iso8601WithFractionalSeconds)

  /// The paths, in the form `SimulatedTransport.route` takes (`{id}` is a parameter).
  ///
  /// - Note: Isolation: namespace of constant strings; any isolation.
  public enum Path {
    /// `/auth/login`.
    public static let login = "/auth/login"
    /// `/auth/refresh`.
    public static let refresh = "/auth/refresh"
    /// `/auth/logout`.
    public static let logout = "/auth/logout"
    /// `/metrics`.
    public static let metrics = "/metrics"
    /// `/metrics/{id}`.
    public static let metric = "/metrics/{id}"
    /// `/insights`.
    public static let insights = "/insights"

    /// `/metrics/<id>`.
    ///
    /// - Complexity: O(1).
    public static func metric(id: UUID) -> String { "/metrics/\(id.uuidString)" }
  }

  /// The query item names.
  ///
  /// - Note: Isolation: namespace of constant strings; any isolation.
  public enum Query {
    /// `from`: the start of the interval, `HealthAPI.queryDate` format.
    public static let from = "from"
    /// `to`: the end of the interval, inclusive.
    public static let to = "to"
    /// `limit`: how many insights at most.
    public static let limit = "limit"
  }

  /// `date` as the `from`/`to` query values write it: ISO 8601 with milliseconds, UTC
  /// (`2024-06-01T12:00:00.000Z`).
  ///
  /// - Complexity: O(1).
  public static func queryDate(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
  }

  /// Parses a `from`/`to` query value (with or without fractional seconds).
  ///
  /// - Complexity: O(n), n = text length.
  public static func parseQueryDate(_ text: String) -> Date? {
    let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    if let date = try? fractional.parse(text) {  // try?: not this form: try the second
      return date
    }
    return try? Date.ISO8601FormatStyle().parse(text)  // try?: neither form: the nil above
  }
}
