import SimulatorKit
import SimulatorPacks

extension HealthCommands {
  /// The context tree: WeftContexts' pack, on the grade-weights form (which publishes the
  /// context's errors and resolves paths under its class context).
  static let context: [Command] = ContextPack.commands(
    defaultContext: "the grade-weights class context"
  ) { app, action in
    let runtime = app.runtime
    switch action {
    case .request(let name, let at): _ = try runtime.contextRequest(name, at: at)
    case .flag(let set, let name, let at): try runtime.contextFlag(name, set: set, at: at)
    case .execute(let name, let at): try runtime.contextExecute(name, at: at)
    case .post(let name, let at): try runtime.contextPost(name, at: at)
    }
  }
}
