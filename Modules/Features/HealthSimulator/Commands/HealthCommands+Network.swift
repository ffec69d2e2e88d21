import AppFeature
import SimulatorKit

extension HealthCommands {
  /// The words of `network fault`, as flows write them.
  static let faultWords = ["timeout", "drop", "5xx", "429", "truncated", "garbage"]

  /// The virtual network, the realtime connection and the sync engine.
  static let network: [Command] = [
    plain(
      "network offline", summary: "Makes the network capability unavailable.", category: .network
    ) { try await $0.runtime.setNetwork(online: false) },
    plain(
      "network online", summary: "Makes the network capability available again.",
      category: .network
    ) { try await $0.runtime.setNetwork(online: true) },
    Command(
      "network latency",
      summary: "Sets the virtual latency of every request, plus a seeded random jitter.",
      category: .network,
      arguments: [.positional("the latency", .duration), .keyword("jitter", .duration)]
    ) { app, arguments in
      try app.runtime.setLatency(
        arguments.requiredDuration("the latency"), jitter: arguments.duration("jitter") ?? .zero)
    },
    Command(
      "network fault",
      usage: "network fault timeout|drop|5xx|429|truncated|garbage [rate=0..1] [count=N] "
        + "[path=PATTERN] [status=N] [retry-after=DURATION]",
      summary: "Injects a fault into matching requests: a rate (default 1), a count after "
        + "which it clears, a path pattern with '*', the 5xx status and a Retry-After.",
      category: .network,
      arguments: [
        .positional("network fault", .word(faultWords), placeholder: "KIND"),
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
      }
    ) { app, arguments in
      try app.runtime.injectFault(fault(arguments))
    },
    plain(
      "network faults clear", aliases: ["network fault clear"],
      summary: "Removes every injected fault.", category: .network
    ) { try $0.runtime.clearFaults() },
    Command(
      "realtime", summary: "Connects, cleanly disconnects or drops the realtime connection.",
      category: .network,
      arguments: [.positional("realtime action", .word(["connect", "disconnect", "drop"]))]
    ) { app, arguments in
      switch arguments.text("realtime action") {
      case "connect": try await app.runtime.realtimeConnect()
      case "disconnect": try await app.runtime.realtimeDisconnect()
      default: try await app.runtime.realtimeDrop()
      }
    },
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
      }
    ) { app, _ in
      try await app.runtime.waitUntilSyncIdle()
    },
  ]

  /// The fault a `network fault` statement describes.
  static func fault(_ arguments: CommandArguments) throws(SimulationError) -> NetworkFaultSpec {
    let kind: NetworkFaultSpec.Kind =
      switch try arguments.requiredText("network fault") {
      case "timeout": .timeout
      case "drop": .drop
      case "5xx": .serverError(status: arguments.integer("status") ?? 503)
      case "429": .rateLimited(retryAfter: arguments.duration("retry-after") ?? .seconds(1))
      case "truncated": .truncated
      default: .garbage
      }
    return NetworkFaultSpec(
      kind, rate: arguments.number("rate") ?? 1, count: arguments.integer("count"),
      path: arguments.text("path"))
  }
}
