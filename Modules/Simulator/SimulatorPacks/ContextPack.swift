import Foundation
import SimulatorFlow
import SimulatorKit
import WeftContexts

/// The `context.request|flag|execute|post NAME [at=CONTEXT-PATH]` commands, for any app with
/// a WeftContexts tree: declared once here, carried out on the context the app resolves for
/// a path (`apply(_:in:)`), or by the app's own `perform`.
///
/// ```swift
/// let commands = ContextPack.commands(for: MyApp.self) { app, path in
///   try app.context(at: path ?? "global/Notes")
/// }
/// ```
///
/// - Note: Isolation: constants; commands perform on the MainActor.
public enum ContextPack {
  /// What a `context.…` statement asks for, on the context at `path` (`nil`: the app's
  /// default context).
  public enum Action: Sendable, Equatable {
    /// `context.request NAME`: request a value by name.
    case request(name: String, at: String?)
    /// `context.flag set|unset NAME`: set or unset a flag.
    case flag(set: Bool, name: String, at: String?)
    /// `context.execute NAME`: run an executable.
    case execute(name: String, at: String?)
    /// `context.post NAME`: post a notification to the context's observers.
    case post(name: String, at: String?)
  }

  /// The category the commands are listed under.
  public static let category = FlowCommand.Category("contextTree", title: "Context tree")

  /// The commands for `App`, carried out by `perform`.
  ///
  /// - Parameter defaultContext: names the context a statement without `at=` acts on, for
  ///   the summaries.
  /// - Complexity: O(1); four commands.
  public static func commands<App: SimulatedApp>(
    for app: App.Type = App.self, defaultContext: String,
    _ perform: @escaping @MainActor @Sendable (App, Action) async throws -> Void
  ) -> [AppCommand<App>] {
    let name = CommandArgument.positional("name", .name, placeholder: "NAME")
    let at = CommandArgument.keyword("at", .contextPath)
    return [
      AppCommand(
        "context.request",
        summary: "Requests a value by name from a context (\(defaultContext) by default); a "
          + "missing or ambiguous name fails the step with the context's error.",
        category: category, arguments: [name, at]
      ) { app, arguments in
        try await perform(
          app, .request(name: try arguments.requiredText("name"), at: arguments.text("at")))
      },
      AppCommand(
        "context.flag",
        summary: "Sets or unsets a flag on a context; setting a set flag fails the step.",
        category: category,
        arguments: [.positional("flag change", .word(["set", "unset"])), name, at]
      ) { app, arguments in
        try await perform(
          app,
          .flag(
            set: arguments.text("flag change") == "set", name: try arguments.requiredText("name"),
            at: arguments.text("at")))
      },
      AppCommand(
        "context.execute", summary: "Runs an executable by name from a context.",
        category: category, arguments: [name, at]
      ) { app, arguments in
        try await perform(
          app, .execute(name: try arguments.requiredText("name"), at: arguments.text("at")))
      },
      AppCommand(
        "context.post", summary: "Posts a notification by name to a context's observers.",
        category: category, arguments: [name, at]
      ) { app, arguments in
        try await perform(
          app, .post(name: try arguments.requiredText("name"), at: arguments.text("at")))
      },
    ]
  }

  /// The commands for `App`, carried out on the context `resolve` finds for a statement's
  /// `at=` path (`nil` when the statement has none) with `apply(_:in:)`.
  ///
  /// - Complexity: O(1); four commands.
  public static func commands<App: SimulatedApp>(
    for app: App.Type = App.self, defaultContext: String,
    resolve: @escaping @MainActor @Sendable (App, String?) throws -> Context
  ) -> [AppCommand<App>] {
    commands(for: app, defaultContext: defaultContext) { app, action in
      try apply(action, in: resolve(app, action.path))
    }
  }

  /// Carries `action` out on `context` with WeftContexts' throwing lookups: a missing name,
  /// a flag already set, or a missing executable fails the step with the context's error.
  ///
  /// - Throws: the context's `ContextError`.
  /// - Complexity: O(d), d = the context's depth (names are looked up upwards).
  @MainActor
  public static func apply(_ action: Action, in context: Context) throws {
    switch action {
    case .request(let name, _): _ = try context.tryRequest(Requestable.Name(name), as: Any.self)
    case .flag(true, let name, _): try context.trySetFlag(Flag.Name(name))
    case .flag(false, let name, _): try context.tryUnsetFlag(Flag.Name(name))
    case .execute(let name, _): try context.tryExecute(Executable.Name(name))
    case .post(let name, _): context.post(name: Notification.Name(name))
    }
  }
}

extension ContextPack.Action {
  /// The context path the statement names, if any.
  public var path: String? {
    switch self {
    case .request(_, let at), .flag(_, _, let at), .execute(_, let at), .post(_, let at): at
    }
  }
}
