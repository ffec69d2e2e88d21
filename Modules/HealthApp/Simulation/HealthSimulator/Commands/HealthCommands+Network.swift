import AppFeature
import HealthHarness
import SimulatorFlow
import SimulatorKit
import SimulatorPacks

extension HealthCommands {
  /// The virtual network (WeftNetworking's pack on the app's `SimulatedNetwork`), the
  /// realtime connection and the sync engine.
  static let network: [Command] =
    NetworkPack.commands { app, action in
      let runtime = app.runtime
      switch action {
      case .online(let online): try await runtime.setNetwork(online: online)
      case .latency(let base, let jitter): runtime.setLatency(base, jitter: jitter)
      case .fault(let fault): runtime.injectFault(spec(fault))
      case .clearFaults: runtime.clearFaults()
      }
    }
    + RealtimePack.commands { app, action in
      switch action {
      case .connect: try await app.runtime.realtimeConnect()
      case .disconnect: try await app.runtime.realtimeDisconnect()
      case .drop: try await app.runtime.realtimeDrop()
      }
    }
    + [
      Command(
        "realtime push",
        summary: "The backend pushes a new insight over the realtime connection.",
        category: .network,
        arguments: [
          .literal("insight"), .keyword("title", .text, required: true), .keyword("body", .text),
        ]
      ) { app, arguments in
        try await app.runtime.pushInsight(
          title: arguments.requiredText("title"), body: arguments.text("body"))
      },
      Command(
        "wait sync.idle",
        summary: "Runs until the sync engine is idle (fails after the virtual timeout).",
        category: .network, arguments: [.keyword("timeout", .duration)],
        check: { (arguments) throws(ArgumentProblem) in
          if let timeout = arguments.duration("timeout"), timeout <= .zero {
            throw ArgumentProblem(
              "timeout= must be longer than 0s", at: "timeout",
              hint: "leave it out to use the runner's default timeout", kind: .valueOutOfRange)
          }
        },
        perform: { app, arguments in
          try await app.waitUntilQuiet(timeout: arguments.duration("timeout"))
        }),
    ]

  /// The app's fault for a pack's fault (the app's network times requests out itself).
  static func spec(_ fault: NetworkPack.Fault) -> NetworkFaultSpec {
    let kind: NetworkFaultSpec.Kind =
      switch fault.kind {
      case .timeout: .timeout
      case .drop: .drop
      case .serverError: .serverError(status: fault.status ?? 503)
      case .rateLimited: .rateLimited(retryAfter: fault.retryAfter ?? .seconds(1))
      case .truncated: .truncated
      case .garbage: .garbage
      }
    return NetworkFaultSpec(kind, rate: fault.rate, count: fault.count, path: fault.path)
  }
}
