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
/// set long (`resourceTimeout`, 5 minutes by default); per-attempt timeouts belong to the
/// client (``HTTPClient/defaultTimeout``), on the client's clock.
///
/// The body is received through a session delegate, so a body limit
/// (``send(_:responseBodyLimit:)``, which ``HTTPClient`` uses) is enforced as the bytes
/// arrive: a `Content-Length` above the limit is refused before any of the body is read,
/// and a body without one (chunked) fails as soon as the bytes received pass the limit. The
/// caller is resumed at once and the data task cancelled; bytes libcurl delivers before the
/// cancellation lands are dropped, not kept.
///
/// - Complexity: one data task per request; the body is held in memory whole, up to the
///   limit.
/// - Note: Isolation: thread-safe; the session's delegate queue resumes the caller.
/// - Note: Allocations: the `URLRequest`, the data task, one registry entry and the body.
public final class URLSessionTransport: Transport {
  private let session: URLSession
  private let exchanges: ExchangeRegistry
  private let resourceTimeout: TimeInterval

  /// Makes a transport with its own ephemeral session (no cookies or cache on disk).
  public init(resourceTimeout: Duration = .seconds(300)) {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForResource = resourceTimeout.seconds
    configuration.timeoutIntervalForRequest = resourceTimeout.seconds
    self.exchanges = ExchangeRegistry()
    self.session = URLSession(
      configuration: configuration, delegate: exchanges, delegateQueue: nil)
    self.resourceTimeout = resourceTimeout.seconds
  }

  /// Makes a transport with `session`'s configuration (headers, cookie storage, cache,
  /// proxies, timeouts).
  ///
  /// > Note: The transport makes its own session from that configuration, because the body
  /// > limit needs the transport's delegate; `session` itself is not used, and its delegate
  /// > (if any) is not called. The caller keeps owning `session`.
  public init(session: URLSession, resourceTimeout: Duration = .seconds(300)) {
    self.exchanges = ExchangeRegistry()
    self.session = URLSession(
      configuration: session.configuration, delegate: exchanges, delegateQueue: nil)
    self.resourceTimeout = resourceTimeout.seconds
  }

  deinit {
    // The session holds its delegate until it is invalidated.
    session.finishTasksAndInvalidate()
  }

  /// Sends `request` with no body limit.
  ///
  /// - Throws: ``TransportError`` when no response arrives.
  /// - Complexity: one data task; the body is held in memory whole.
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    try await send(request, responseBodyLimit: .max)
  }

  /// Sends `request`, refusing a body larger than `responseBodyLimit` bytes while it
  /// arrives (see the type's discussion).
  ///
  /// - Throws: ``TransportError``; ``TransportError/responseTooLarge(limit:declaredLength:)``
  ///   past the limit.
  /// - Complexity: one data task; O(b) to collect the body, b ≤ `responseBodyLimit`.
  public func send(_ request: HTTPRequest, responseBodyLimit: Int) async throws -> HTTPResponse {
    var urlRequest = URLRequest(url: request.url, timeoutInterval: resourceTimeout)
    urlRequest.httpMethod = request.method.rawValue
    for field in request.headers {
      urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
    }
    urlRequest.httpBody = request.body
    let handle = DataTaskHandle()
    let session = self.session
    let exchanges = self.exchanges
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let task = session.dataTask(with: urlRequest)
        // Registered before the task starts, so no callback can miss it.
        exchanges.register(task, limit: max(0, responseBodyLimit), continuation: continuation)
        if !handle.start(task) { exchanges.cancel(task) }
      }
    } onCancel: {
      // The caller resumes now, not when FoundationNetworking reports the cancelled task
      // (on a loaded machine that report came only when the server answered, 25+ s later).
      if let task = handle.cancel() { exchanges.cancel(task) }
    }
  }
}

/// The session delegate: collects each data task's response and body, enforces its limit,
/// and resumes its caller exactly once.
///
/// `NSObject` subclasses may be `Sendable` when final with only `let` properties of
/// `Sendable` types; the one mutable state is inside `Locked`.
private final class ExchangeRegistry: NSObject, URLSessionDataDelegate, Sendable {
  private struct Exchange {
    var continuation: CheckedContinuation<HTTPResponse, any Error>
    var limit: Int
    var response: HTTPURLResponse?
    var body = Data()
  }

  private let exchanges = Locked<[Int: Exchange]>([:])

  func register(
    _ task: URLSessionDataTask, limit: Int,
    continuation: CheckedContinuation<HTTPResponse, any Error>
  ) {
    exchanges.withLock {
      $0[task.taskIdentifier] = Exchange(continuation: continuation, limit: limit)
    }
  }

  /// Removes the task's exchange and resumes its caller with `result`; later callbacks for
  /// the task find nothing and do nothing.
  private func finish(_ task: URLSessionTask, with result: Result<HTTPResponse, any Error>) {
    let exchange = exchanges.withLock { $0.removeValue(forKey: task.taskIdentifier) }
    exchange?.continuation.resume(with: result)
  }

  /// Resumes the task's caller with `TransportError.cancelled` now; the task's own
  /// completion, when it comes, finds nothing to resume.
  func cancel(_ task: URLSessionTask) {
    finish(task, with: .failure(TransportError.cancelled))
  }

  // An optional requirement: if an SDK's signature ever stops matching this one (its
  // completion handler's annotations), it is silently never called. Nothing depends on it for
  // correctness: completion falls back to `task.response`, and the body limit is enforced
  // again in `didReceive data`, whose signature has no closure. Only the early refusal of a
  // declared Content-Length over the limit would be lost.
  func urlSession(
    _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
  ) {
    let declared = response.expectedContentLength
    let refusedLimit = exchanges.withLock { all -> Int? in
      guard var exchange = all[dataTask.taskIdentifier] else { return nil }
      if declared > exchange.limit { return exchange.limit }
      exchange.response = response as? HTTPURLResponse
      if declared > 0 { exchange.body.reserveCapacity(Int(declared)) }
      all[dataTask.taskIdentifier] = exchange
      return nil
    }
    guard let refusedLimit else {
      completionHandler(.allow)
      return
    }
    finish(
      dataTask,
      with: .failure(
        TransportError.responseTooLarge(limit: refusedLimit, declaredLength: Int(declared))))
    completionHandler(.cancel)
    // FoundationNetworking keeps reading after a `.cancel` disposition (a 1 GiB body was
    // read to the end in a test); cancelling the task is what closes the connection.
    dataTask.cancel()
  }

  func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
    let passedLimit = exchanges.withLock { all -> Int? in
      guard let index = all.index(forKey: dataTask.taskIdentifier) else { return nil }
      let limit = all.values[index].limit
      guard all.values[index].body.count + data.count <= limit else { return limit }
      all.values[index].body.append(data)  // in place: the body has one owner
      return nil
    }
    guard let passedLimit else { return }
    finish(
      dataTask,
      with: .failure(TransportError.responseTooLarge(limit: passedLimit, declaredLength: nil)))
    dataTask.cancel()
  }

  func urlSession(
    _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
  ) {
    let exchange = exchanges.withLock { $0[task.taskIdentifier] }
    guard let exchange else { return }
    if let error {
      finish(task, with: .failure(TransportError(error)))
      return
    }
    guard let http = exchange.response ?? task.response as? HTTPURLResponse else {
      finish(
        task,
        with: .failure(
          TransportError.failed(
            "the response is not HTTP: \(String(describing: task.response))")))
      return
    }
    var headers = HTTPHeaders()
    for (name, value) in http.allHeaderFields {
      headers["\(name)"] = "\(value)"
    }
    finish(
      task,
      with: .success(HTTPResponse(status: http.statusCode, headers: headers, body: exchange.body)))
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

  /// Starts `task`; returns `false` (and cancels it) when the call was already cancelled.
  func start(_ task: URLSessionDataTask) -> Bool {
    let cancelled = state.withLock { box -> Bool in
      if case .cancelled = box { return true }
      box = .running(task)
      return false
    }
    task.resume()
    if cancelled { task.cancel() }
    return !cancelled
  }

  /// Cancels the running task, if any, and returns it.
  func cancel() -> URLSessionDataTask? {
    let task = state.withLock { box -> URLSessionDataTask? in
      defer { box = .cancelled }
      if case .running(let task) = box { return task }
      return nil
    }
    task?.cancel()
    return task
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
