import Foundation

/// Why a request failed, with what a log line needs to debug it: the method, URL, endpoint
/// name and attempt number.
///
/// ```swift
/// do { _ = try await client.send(getUser) }
/// catch { logger.error("\(error)") }
/// // GET http://api.test/users/42 [GET /users/{id}, attempt 3]: HTTP 503: "overloaded" —
/// // the server failed; still failing after 3 attempts (retried as the retry policy allows)
/// ```
///
/// Match on ``kind`` to decide what to do; print the error to log it.
///
/// - Complexity: `description` is O(message length).
/// - Note: Isolation: a value type; any isolation.
/// - Note: Allocations: the strings it carries.
public struct NetworkError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What kind of failure this is.
  public enum Kind: Sendable, Equatable {
    /// The device has no network path (or ``NetworkAvailability`` says so).
    case offline
    /// No response within `after` (one attempt's timeout, on the client's clock).
    case timeout(after: Duration)
    /// The caller's task was cancelled; the transport call was cancelled with it.
    case cancelled
    /// The server answered with a non-2xx status; `bodyExcerpt` is the start of the body.
    case http(status: Int, bodyExcerpt: String)
    /// The 2xx body did not decode; `codingPath` is like `items[2].createdAt`.
    case decoding(codingPath: String, message: String)
    /// The transport failed: refused, dropped, DNS, TLS.
    case transport(message: String)
    /// The bearer token could not be refreshed after a 401.
    case authentication(message: String)
    /// The request could not be built: a body that does not encode, a path that is not a URL.
    case encoding(message: String)
  }

  /// What kind of failure this is.
  public var kind: Kind
  /// The request's method.
  public var method: HTTPMethod
  /// The request's URL.
  public var url: URL
  /// The endpoint's name (`GET /users/{id}`).
  public var endpoint: String
  /// The attempt that failed, counting from 1 (0 when the request was never sent). Above 1
  /// exactly when retries ran.
  public var attempt: Int
  /// The transport's own error behind `.offline`, `.cancelled` or `.transport`, when the
  /// transport threw one: match it for details the kind does not carry, such as
  /// ``TransportError/responseTooLarge(limit:declaredLength:)``.
  ///
  /// ```swift
  /// if case .responseTooLarge(let limit, _)? = error.transportError { … }
  /// ```
  public var transportError: TransportError?

  /// Makes an error.
  public init(
    _ kind: Kind, method: HTTPMethod, url: URL, endpoint: String, attempt: Int,
    transportError: TransportError? = nil
  ) {
    self.kind = kind
    self.method = method
    self.url = url
    self.endpoint = endpoint
    self.attempt = attempt
    self.transportError = transportError
  }

  /// Makes an error about `request`.
  public init(
    _ kind: Kind, request: HTTPRequest, endpoint: String, attempt: Int,
    transportError: TransportError? = nil
  ) {
    self.init(
      kind, method: request.method, url: request.url, endpoint: endpoint, attempt: attempt,
      transportError: transportError)
  }

  /// Whether the response body or headers were larger than the client's limits.
  var isResponseTooLarge: Bool {
    switch transportError {
    case .responseTooLarge?, .responseHeadersTooLarge?: true
    default: false
    }
  }

  /// One self-contained log line: request, endpoint, attempt, what happened, how to fix it.
  /// It says a request was retried only when it was (``attempt`` above 1).
  public var description: String {
    "\(method) \(url.absoluteString) [\(endpoint), attempt \(attempt)]: \(explanation)"
  }

  /// What happened and what to do about it.
  private var explanation: String {
    if case .responseTooLarge? = transportError, case .transport(let message) = kind {
      return "\(message) — raise HTTPClient.responseBodyLimit if such a body is expected, "
        + "or ask the server for less (a page, a range)"
    }
    if case .responseHeadersTooLarge? = transportError, case .transport(let message) = kind {
      return "\(message) — raise HTTPClient.responseHeaderLimits if such headers are expected"
    }
    return kind.explanation(attempt: attempt)
  }
}

extension NetworkError.Kind {
  /// What happened and what to do about it, for a failure at `attempt` (retries ran exactly
  /// when it is above 1).
  func explanation(attempt: Int) -> String {
    switch self {
    case .offline:
      "offline: the device has no network path — queue the work and retry when "
        + "NetworkAvailability reports the network back"
    case .timeout(let after):
      "timed out after \(after) without a response — raise the endpoint's timeout, or check "
        + "that the server is up and answering"
    case .cancelled:
      "cancelled: the calling task was cancelled and the transport call with it — nothing to "
        + "fix unless the cancellation was unexpected"
    case .http(let status, let excerpt):
      "HTTP \(status): \"\(excerpt)\" — \(Self.hint(for: status, attempt: attempt))"
    case .decoding(let path, let message):
      "the response did not decode at \(path.isEmpty ? "the root" : path): \(message) — "
        + "check the response type against what the server sends, and the date strategy"
    case .transport(let message):
      "transport failure: \(message) — check the URL and that the server is reachable"
    case .authentication(let message):
      "the bearer token could not be refreshed after a 401: \(message) — sign in again"
    case .encoding(let message):
      "the request could not be built: \(message) — fix the endpoint definition"
    }
  }

  private static func hint(for status: Int, attempt: Int) -> String {
    switch status {
    case 401: "unauthorized even after a token refresh: sign in again"
    case 403: "forbidden: the account lacks the permission"
    case 404: "not found: check the path and the identifiers in it"
    case 429 where attempt > 1:
      "rate limited: still limited after \(attempt) attempts (retried as Retry-After "
        + "allowed); slow down the caller"
    case 429:
      "rate limited: not retried (no RetryMiddleware, a request that is not retry-safe, or a "
        + "Retry-After past the policy's limit); slow down the caller"
    case 400..<500: "the server refused the request: check its parameters and body"
    case 500..<600 where attempt > 1:
      "the server failed; still failing after \(attempt) attempts (retried as the retry "
        + "policy allows)"
    case 500..<600:
      "the server failed; not retried (no RetryMiddleware, a request that is not retry-safe, "
        + "or a status the policy does not retry) — try again later"
    default: "unexpected status"
    }
  }
}
