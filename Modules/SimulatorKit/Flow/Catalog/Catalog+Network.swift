extension Catalog {
  /// The virtual network, the realtime connection and the clock.
  static let network: [CommandSpec] = [
    plain(
      "network offline", summary: "Makes the network capability unavailable.",
      category: .network, .networkOffline),
    plain(
      "network online", summary: "Makes the network capability available again.",
      category: .network, .networkOnline),
    CommandSpec(
      FlowCommand(
        "network latency", usage: "network latency DURATION [jitter=DURATION]",
        summary: "Sets the virtual latency of every request, plus a seeded random jitter.",
        keywords: ["jitter"], category: .network),
      .step { (reader: inout ArgumentReader) throws(FlowError) -> StepKind in
        let latencySyntax = try reader.requireValue("DURATION")
        let latency = try reader.duration(latencySyntax, "the latency")
        let jitter = try reader.keyword("jitter").map { (value) throws(FlowError) in
          try reader.duration(value, "jitter=")
        }
        return .networkLatency(latency, jitter: jitter ?? .zero)
      }),
    CommandSpec(
      FlowCommand(
        "network fault",
        usage: "network fault timeout|drop|5xx|429|truncated|garbage [rate=0..1] [count=N] "
          + "[path=PATTERN] [status=N] [retry-after=DURATION]",
        summary: "Injects a fault into matching requests: a rate (default 1), a count after "
          + "which it clears, a path pattern with '*', the 5xx status and a Retry-After.",
        keywords: ["rate", "count", "path", "status", "retry-after"], category: .network),
      .step { (reader: inout ArgumentReader) throws(FlowError) -> StepKind in
        let kindSyntax = try reader.requireValue("KIND")
        var fault = StepKind.NetworkFault(
          kind: try reader.word(kindSyntax, StepKind.NetworkFault.Kind.self))
        if fault.kind != .serverError { try reader.reject("status", "to 'network fault 5xx'") }
        if fault.kind != .serverError, fault.kind != .rateLimited {
          try reader.reject("retry-after", "to 'network fault 429' and 'network fault 5xx'")
        }
        if let rate = reader.keyword("rate") {
          fault.rate = try reader.decimal(rate, "rate=", in: 0...1)
        }
        if let count = reader.keyword("count") {
          fault.count = try reader.integer(count, "count=", in: 1...Int.max)
        }
        if let path = reader.keyword("path") {
          fault.path = try reader.name(path, "a path pattern")
        }
        if let status = reader.keyword("status") {
          fault.status = try reader.integer(status, "status=", in: 500...599)
        }
        if let retryAfter = reader.keyword("retry-after") {
          fault.retryAfter = try reader.duration(retryAfter, "retry-after=")
        }
        return .networkFault(fault)
      }),
    plain(
      "network faults clear", aliases: ["network fault clear"],
      summary: "Removes every injected fault.", category: .network, .clearNetworkFaults),
    CommandSpec(
      FlowCommand(
        "realtime", usage: "realtime connect|disconnect|drop",
        summary: "Connects, cleanly disconnects or drops the realtime connection.",
        category: .network),
      .step { (reader: inout ArgumentReader) throws(FlowError) -> StepKind in
        let value = try reader.requireValue("connect|disconnect|drop")
        return .realtime(try reader.word(value, StepKind.RealtimeAction.self))
      }),
    CommandSpec(
      FlowCommand(
        "realtime push", usage: "realtime push insight title=TEXT [body=TEXT]",
        summary: "The backend pushes a new insight over the realtime connection.",
        keywords: ["title", "body"], category: .network),
      .step { (reader: inout ArgumentReader) throws(FlowError) -> StepKind in
        let what = try reader.require("insight")
        try reader.literal("insight", what)
        let title = try reader.text(reader.requireKeyword("title"))
        let body = try reader.keyword("body").map { (value) throws(FlowError) in
          try reader.text(value)
        }
        return .pushInsight(title: title, body: body)
      }),
    CommandSpec(
      FlowCommand(
        "clock advance", usage: "clock advance DURATION",
        summary: "Advances the virtual clock, running what falls due in deadline order.",
        category: .clock),
      .step { (reader: inout ArgumentReader) throws(FlowError) -> StepKind in
        let value = try reader.requireValue("DURATION")
        return .advanceClock(try reader.duration(value, "clock advance"))
      }),
    CommandSpec(
      FlowCommand(
        "wait sync.idle", usage: "wait sync.idle [timeout=DURATION]",
        summary: "Runs until the sync engine is idle (fails after the virtual timeout).",
        keywords: ["timeout"], category: .clock),
      .step { (reader: inout ArgumentReader) throws(FlowError) -> StepKind in
        .waitSyncIdle(timeout: try timeout(reader))
      }),
    CommandSpec(
      FlowCommand(
        "wait", usage: "wait PATH OP VALUE [timeout=DURATION]",
        summary: "Runs until the condition holds (fails after the virtual timeout).",
        keywords: ["timeout"], category: .clock),
      .step { (reader: inout ArgumentReader) throws(FlowError) -> StepKind in
        let condition = try reader.condition()
        return .wait(condition, timeout: try timeout(reader))
      }),
  ]

  /// `timeout=`, which must be positive.
  private static func timeout(_ reader: ArgumentReader) throws(FlowError) -> Duration? {
    guard let syntax = reader.keyword("timeout") else { return nil }
    let duration = try reader.duration(syntax, "timeout=")
    guard duration > .zero else {
      throw reader.source.error(
        .valueOutOfRange, at: syntax.span, "timeout= must be longer than 0s",
        hint: "leave it out to use the runner's default timeout")
    }
    return duration
  }

  /// Expectations.
  static let checks: [CommandSpec] = [
    CommandSpec(
      FlowCommand(
        "expect", aliases: ["assert"], usage: "expect PATH ==|!=|<|<=|>|>=|contains VALUE",
        summary: "Fails the step unless the observed value at PATH compares as written; the "
          + "report shows expected and actual.",
        category: .checks),
      .step { (reader: inout ArgumentReader) throws(FlowError) -> StepKind in
        .expect(try reader.condition())
      })
  ]
}
