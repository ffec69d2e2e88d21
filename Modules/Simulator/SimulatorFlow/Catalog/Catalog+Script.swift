extension Catalog {
  /// `flow`, `seed`, `date`, `let`, `repeat`, `together` and `log`.
  static let script: [CommandSpec] = [
    CommandSpec(
      FlowCommand(
        "flow", usage: "flow \"NAME\"",
        summary: "Names the flow; at most once, before any other statement.", category: .script),
      .flowName),
    CommandSpec(
      FlowCommand(
        "seed", usage: "seed N",
        summary: "Seeds the virtual network's random draws (jitter, fault rates); at most once.",
        category: .script),
      .seed),
    CommandSpec(
      FlowCommand(
        "date", usage: "date INSTANT",
        summary: "Sets the wall clock at launch (2026-03-01T09:00:00Z, 2026-03-01T09:00 or "
          + "2026-03-01): what `Date()` reads, moving with virtual time; `today` and `now` "
          + "resolve against it; at most once.",
        category: .script),
      .date),
    CommandSpec(
      FlowCommand(
        "let", usage: "let NAME = VALUE",
        summary: "Defines a variable for the rest of the block: $NAME in later statements.",
        category: .script),
      .letBinding),
    CommandSpec(
      FlowCommand(
        "repeat", usage: "repeat N [as NAME] [together] { ... }",
        summary: "Runs the block N times with $i (or $NAME) counting 1...N; unrolled before "
          + "the run. With `together`, every iteration's commands start at once, as one "
          + "`together` block.",
        category: .script, takesBlock: true),
      .repeatBlock),
    CommandSpec(
      FlowCommand(
        "together", usage: "together { ... }",
        summary: "Starts the block's app commands at once, each as its own task, and "
          + "settles once at the block's end: arrival order under `run`, interleaved by "
          + "`explore`.",
        category: .script, takesBlock: true),
      .togetherBlock),
    CommandSpec(
      FlowCommand(
        "log", usage: "log \"TEXT\"", summary: "Prints a line in the trace.", category: .script),
      .step { (reader: inout ArgumentReader) throws(FlowError) -> StepKind in
        let value = try reader.requireValue("\"TEXT\"")
        return .log(try reader.text(value))
      }),
  ]

  /// `views N observe PATH [via observation] [as NAME]`, `views detach NAME [N]`,
  /// `views detach all`.
  static let views: [CommandSpec] = [
    CommandSpec(
      FlowCommand(
        "views", usage: "views N observe PATH [via observation] [as NAME]",
        summary: "Attaches N headless views that each observe PATH, as the group NAME "
          + "(the path by default): WeftCore MainActor callbacks, or with `via observation` "
          + "reads through the Observation bridge (withObservationTracking).",
        category: .views),
      .step { (reader: inout ArgumentReader) throws(FlowError) -> StepKind in
        let countSyntax = try reader.requireValue("N")
        let count = try reader.integer(countSyntax, "the view count", in: 1...Environment.maxViews)
        let observe = try reader.require("observe")
        try reader.literal("observe", observe)
        let pathSyntax = try reader.requireValue("PATH")
        let path = try reader.path(pathSyntax)
        var name = path
        var delivery = ViewDelivery.callbacks
        var word = reader.next()
        if let viaWord = word, case .value(let syntax) = viaWord, syntax.bareWord == "via" {
          try reader.literal("observation", try reader.require("observation"))
          delivery = .observation
          word = reader.next()
        }
        if let asWord = word {
          try reader.literal("as", asWord)
          let nameSyntax = try reader.requireValue("NAME")
          name = try reader.name(nameSyntax, "a view group name")
        }
        try reader.views.attach(
          count, as: name, at: reader.statement.commandSpan.through(pathSyntax.span),
          in: reader.source)
        return .attachViews(count: count, path: path, name: name, delivery: delivery)
      }, cacheable: false),
    CommandSpec(
      FlowCommand(
        "views detach", usage: "views detach NAME [N]",
        summary: "Detaches N views of the group NAME, or all of them.", category: .views),
      .step { (reader: inout ArgumentReader) throws(FlowError) -> StepKind in
        let nameSyntax = try reader.requireValue("NAME")
        let name = try reader.name(nameSyntax, "a view group name")
        var count: Int?
        if let countArgument = reader.next() {
          let countSyntax = try reader.value(countArgument, "N")
          count = try reader.integer(countSyntax, "the view count", in: 1...Environment.maxViews)
        }
        try reader.views.detach(count, from: name, at: nameSyntax.span, in: reader.source)
        return .detachViews(name: name, count: count)
      }, cacheable: false),
    CommandSpec(
      FlowCommand(
        "views detach all", usage: "views detach all", summary: "Detaches every view.",
        category: .views),
      .step { (reader: inout ArgumentReader) throws(FlowError) -> StepKind in
        reader.views.detachAll()
        return .detachAllViews
      }, cacheable: false),
  ]
}
