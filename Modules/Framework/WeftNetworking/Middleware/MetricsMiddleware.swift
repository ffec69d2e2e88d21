import WeftCore

/// Records each request's latency, from entering the chain to its response or error (retries
/// and backoffs included), in a histogram per endpoint through WeftCore's
/// `PerformanceMonitor`.
///
/// ```swift
/// let monitor = PerformanceMonitor(enabled: true)
/// // … HTTPClient(…, middleware: [MetricsMiddleware(monitor: monitor), …])
/// monitor.metrics(for: "http GET /users/{id}")?.latency.summary   // p50/p95/p99/max
/// ```
///
/// Latency is measured on the client's clock: virtual time under a `TestClock` (so
/// simulated runs report the simulated network time, deterministically), real time with
/// `ContinuousClock`.
///
/// - Complexity: O(1) per request: one component lookup, two clock reads, one histogram
///   update.
/// - Note: Isolation: thread-safe; the monitor locks per component.
/// - Note: Allocations: one stopwatch closure per request; none when the monitor is off.
public struct MetricsMiddleware: Middleware {
  /// Where latencies go.
  public let monitor: PerformanceMonitor
  /// Put before the endpoint name to make the component name (`"http "` by default).
  public let prefix: String

  /// Makes the middleware.
  public init(monitor: PerformanceMonitor, prefix: String = "http ") {
    self.monitor = monitor
    self.prefix = prefix
  }

  public func intercept(
    _ request: HTTPRequest, context: RequestContext, next: @escaping MiddlewareNext
  ) async throws -> HTTPResponse {
    guard monitor.isEnabled else { return try await next(request, context) }
    let component = monitor.component(named: prefix + context.endpoint)
    let elapsed = startStopwatch(context.clock)
    defer { component.recordLatency(elapsed()) }
    return try await next(request, context)
  }
}
