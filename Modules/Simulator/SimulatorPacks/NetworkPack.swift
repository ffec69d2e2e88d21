import SimulatorFlow
import SimulatorKit
import WeftNetworking

/// The `network …` commands, for any app on WeftNetworking's simulated transport: declared
/// once here (words, arguments, checks), carried out by the app's `perform` — or by
/// `apply(_:to:availability:)` for an app whose network is a plain `SimulatedTransport`.
///
/// ```swift
/// let commands = NetworkPack.commands(for: MyApp.self) { app, action in
///   try NetworkPack.apply(action, to: app.transport, availability: app.availability)
/// }
/// ```
///
/// - Note: Isolation: constants; commands perform on the MainActor.
public enum NetworkPack {
  /// What a `network …` statement asks for.
  public enum Action: Sendable, Equatable {
    /// `network online` / `network offline`.
    case online(Bool)
    /// `network latency DURATION [jitter=DURATION]`.
    case latency(Duration, jitter: Duration)
    /// `network fault KIND [...]`.
    case fault(Fault)
    /// `network faults clear`.
    case clearFaults
  }

  /// A fault to inject, as a flow writes it.
  public struct Fault: Sendable, Equatable {
    /// The kinds of fault.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
      /// No answer in time.
      case timeout
      /// The connection drops.
      case drop
      /// An HTTP 5xx answer (`status`, 503 by default).
      case serverError = "5xx"
      /// An HTTP 429 answer with a Retry-After (`retryAfter`, 1 s by default).
      case rateLimited = "429"
      /// A body cut short.
      case truncated
      /// A body of random bytes.
      case garbage
    }

    /// The kind.
    public var kind: Kind
    /// The chance a matching request gets the fault (1 by default).
    public var rate: Double
    /// After how many faults the rule clears (`nil`: never).
    public var count: Int?
    /// The path pattern requests must match (`*` matches one segment); `nil`: every path.
    public var path: String?
    /// The 5xx status.
    public var status: Int?
    /// The 429/5xx Retry-After.
    public var retryAfter: Duration?
  }

  /// The category the commands are listed under.
  public static let category = FlowCommand.Category("network", title: "Network and realtime")

  /// The `network …` commands for `App`, carried out by `perform`.
  ///
  /// - Complexity: O(1); four commands.
  public static func commands<App: SimulatedApp>(
    for app: App.Type = App.self,
    _ perform: @escaping @MainActor @Sendable (App, Action) async throws -> Void
  ) -> [AppCommand<App>] {
    [
      AppCommand(
        "network offline", summary: "Makes the network capability unavailable.",
        category: category
      ) { app, _ in try await perform(app, .online(false)) },
      AppCommand(
        "network online", summary: "Makes the network capability available again.",
        category: category
      ) { app, _ in try await perform(app, .online(true)) },
      AppCommand(
        "network latency",
        summary: "Sets the virtual latency of every request, plus a seeded random jitter.",
        category: category,
        arguments: [.positional("the latency", .duration), .keyword("jitter", .duration)]
      ) { app, arguments in
        try await perform(
          app,
          .latency(
            arguments.requiredDuration("the latency"), jitter: arguments.duration("jitter") ?? .zero
          ))
      },
      AppCommand(
        "network fault",
        usage: "network fault timeout|drop|5xx|429|truncated|garbage [rate=0..1] [count=N] "
          + "[path=PATTERN] [status=N] [retry-after=DURATION]",
        summary: "Injects a fault into matching requests: a rate (default 1), a count after "
          + "which it clears, a path pattern with '*', the 5xx status and a Retry-After.",
        category: category,
        arguments: [
          .positional(
            "network fault", .word(Fault.Kind.allCases.map(\.rawValue)), placeholder: "KIND"),
          .keyword("rate", .number(0...1)), .keyword("count", .integer(1...Int.max)),
          .keyword("path", .name), .keyword("status", .integer(500...599)),
          .keyword("retry-after", .duration),
        ],
        check: { (arguments) throws(ArgumentProblem) in
          let kind = arguments.text("network fault")
          if kind != "5xx", arguments.has("status") {
            throw .notApplicable("status", "to 'network fault 5xx'")
          }
          if kind != "5xx", kind != "429", arguments.has("retry-after") {
            throw .notApplicable("retry-after", "to 'network fault 429' and 'network fault 5xx'")
          }
        },
        perform: { app, arguments in
          let kind = Fault.Kind(rawValue: try arguments.requiredText("network fault")) ?? .timeout
          let fault = Fault(
            kind: kind, rate: arguments.number("rate") ?? 1, count: arguments.integer("count"),
            path: arguments.text("path"), status: arguments.integer("status"),
            retryAfter: arguments.duration("retry-after"))
          try await perform(app, .fault(fault))
        }),
      AppCommand(
        "network faults clear", aliases: ["network fault clear"],
        summary: "Removes every injected fault.", category: category
      ) { app, _ in try await perform(app, .clearFaults) },
    ]
  }

  /// Carries `action` out on a plain `SimulatedTransport` (and the app's network
  /// availability, for `online`/`offline`): what an app with no network layer of its own
  /// passes as `perform`.
  ///
  /// WeftNetworking's fault rules fire by a count or by a rate, not both: a fault with a rate
  /// below 1 fires with that rate (its count is not applied); otherwise it fires `count`
  /// times, or always. Latency with jitter is uniform in `base...base + jitter`.
  ///
  /// - Throws: `SimulationError` for `online`/`offline` without an `availability`.
  /// - Complexity: O(1).
  public static func apply(
    _ action: Action, to transport: SimulatedTransport, availability: NetworkAvailability? = nil
  ) throws(SimulationError) {
    switch action {
    case .online(let online):
      guard let availability else {
        throw SimulationError("this app has no network availability to switch")
      }
      availability.set(online)
    case .latency(let base, let jitter):
      transport.setLatency(jitter > .zero ? .uniform(base...(base + jitter)) : .fixed(base))
    case .fault(let fault):
      let simulated: SimulatedFault =
        switch fault.kind {
        case .timeout: .timeout
        case .drop: .dropConnection
        case .serverError: .serverError(status: fault.status ?? 503)
        case .rateLimited: .tooManyRequests(retryAfter: fault.retryAfter ?? .seconds(1))
        case .truncated: .truncatedBody
        case .garbage: .garbageBody
        }
      let schedule: FaultRule.Schedule =
        if fault.rate < 1 { .probability(fault.rate) } else if let count = fault.count {
          .times(count)
        } else { .always }
      transport.inject(
        FaultRule(simulated, schedule: schedule, path: fault.path.map(PathPattern.init)))
    case .clearFaults:
      transport.clearFaults()
    }
  }
}
