import Foundation
import WeftCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real network: sends requests with Foundation's `URLSession` (FoundationNetworking,
/// over libcurl, on Linux).
///
/// ```swift
/// let client = HTTPClient(baseURL: url, transport: URLSessionTransport(),
///                         middleware: [RetryMiddleware(), TimeoutMiddleware()])
/// ```
///
/// Cancelling the calling task cancels the `URLSessionDataTask`. URLSession's own timeout is
/// set long (`resourceTimeout`, 5 minutes by default); per-attempt timeouts belong to
/// ``TimeoutMiddleware``, on the client's clock.
///
/// - Complexity: one data task per request; the body is held in memory whole.
/// - Note: Isolation: thread-safe; URLSession calls back on its own queue, which resumes
///   the caller.
/// - Note: Allocations: the `URLRequest`, the data task and the body.
public final class URLSessionTransport: Transport {
  private let session: URLSession
  private let ownsSession: Bool
  private let resourceTimeout: TimeInterval

  /// Makes a transport with its own ephemeral session (no cookies or cache on disk).
  public init(resourceTimeout: Duration = .seconds(300)) {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForResource = resourceTimeout.seconds
    configuration.timeoutIntervalForRequest = resourceTimeout.seconds
    self.session = URLSession(configuration: configuration)
    self.ownsSession = true
    self.resourceTimeout = resourceTimeout.seconds
  }

  /// Makes a transport over an existing session, which the caller keeps owning.
  public init(session: URLSession, resourceTimeout: Duration = .seconds(300)) {
    self.session = session
    self.ownsSession = false
    self.resourceTimeout = resourceTimeout.seconds
  }

  deinit {
    if ownsSession { session.finishTasksAndInvalidate() }
  }

  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    var urlRequest = URLRequest(url: request.url, timeoutInterval: resourceTimeout)
    urlRequest.httpMethod = request.method.rawValue
    for field in request.headers {
      urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
    }
    urlRequest.httpBody = request.body
    let handle = DataTaskHandle()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let task = session.dataTask(with: urlRequest) { data, response, error in
          continuation.resume(with: Self.result(data: data, response: response, error: error))
        }
        handle.start(task)
      }
    } onCancel: {
      handle.cancel()
    }
  }

  private static func result(
    data: Data?, response: URLResponse?, error: (any Error)?
  ) -> Result<HTTPResponse, any Error> {
    if let error { return .failure(TransportError(error)) }
    guard let http = response as? HTTPURLResponse else {
      return .failure(
        TransportError.failed("the response is not HTTP: \(String(describing: response))"))
    }
    var headers = HTTPHeaders()
    for (name, value) in http.allHeaderFields {
      headers["\(name)"] = "\(value)"
    }
    return .success(HTTPResponse(status: http.statusCode, headers: headers, body: data ?? Data()))
  }
}

/// The data task of one call, so the cancellation handler can cancel it whether it runs
/// before or after the task exists.
private final class DataTaskHandle: Sendable {
  private enum State: Sendable {
    case waiting
    case running(URLSessionDataTask)
    case cancelled
  }

  // The lock orders "start" against "cancel"; the task itself is thread-safe.
  private let state = Locked<State>(.waiting)

  func start(_ task: URLSessionDataTask) {
    let cancelled = state.withLock { box -> Bool in
      if case .cancelled = box { return true }
      box = .running(task)
      return false
    }
    task.resume()
    if cancelled { task.cancel() }
  }

  func cancel() {
    let task = state.withLock { box -> URLSessionDataTask? in
      defer { box = .cancelled }
      if case .running(let task) = box { return task }
      return nil
    }
    task?.cancel()
  }
}

extension TransportError {
  /// Classifies a URLSession error.
  init(_ error: any Error) {
    guard let urlError = error as? URLError else {
      self = .failed("\(error)")
      return
    }
    let detail = "URLError \(urlError.code.rawValue): \(urlError.localizedDescription)"
    switch urlError.code {
    case .cancelled: self = .cancelled
    case .timedOut: self = .timedOut
    case .notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff:
      self = .offline(detail)
    case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed:
      self = .cannotConnect(detail)
    case .networkConnectionLost: self = .connectionLost(detail)
    default: self = .failed(detail)
    }
  }
}

extension Duration {
  /// The duration in seconds, as a `TimeInterval`.
  var seconds: TimeInterval {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
