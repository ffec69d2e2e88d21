extension Catalog {
  /// A command with no arguments that always builds `kind`.
  static func plain(
    _ name: String, aliases: [String] = [], summary: String, category: FlowCommand.Category,
    _ kind: StepKind
  ) -> CommandSpec {
    CommandSpec(
      FlowCommand(name, aliases: aliases, usage: name, summary: summary, category: category),
      .step { (_: inout ArgumentReader) throws(FlowError) -> StepKind in kind })
  }

  /// Login, logout and the session.
  static let auth: [CommandSpec] = [
    CommandSpec(
      FlowCommand(
        "login", usage: "login email=TEXT password=TEXT",
        summary: "Fills in the login form and submits it.", keywords: ["email", "password"],
        category: .auth),
      .step { (reader: inout ArgumentReader) throws(FlowError) -> StepKind in
        let email = try reader.text(reader.requireKeyword("email"))
        let password = try reader.text(reader.requireKeyword("password"))
        return .login(email: email, password: password)
      }),
    CommandSpec(
      FlowCommand(
        "login.set", usage: "login.set [email=TEXT] [password=TEXT]",
        summary: "Types into the login form without submitting.",
        keywords: ["email", "password"], category: .auth),
      .step { (reader: inout ArgumentReader) throws(FlowError) -> StepKind in
        try reader.requireAny(of: ["email", "password"])
        let email = try reader.keyword("email").map { (value) throws(FlowError) in
          try reader.text(value)
        }
        let password = try reader.keyword("password").map { (value) throws(FlowError) in
          try reader.text(value)
        }
        return .setLoginFields(email: email, password: password)
      }),
    plain("login.submit", summary: "Presses the login button.", category: .auth, .submitLogin),
    plain(
      "login.dismiss-error", summary: "Dismisses the login error message.", category: .auth,
      .dismissLoginError),
    plain(
      "logout", summary: "Logs out, clearing every client's sensitive state.", category: .auth,
      .logout),
    plain(
      "auth.retry", summary: "Retries the last failed authentication.", category: .auth,
      .retryAuth),
    plain(
      "session.expire", summary: "Makes the current session's token expire.", category: .auth,
      .expireSession),
    plain(
      "app.relaunch", summary: "Tears the app down and builds it again from its persisted state.",
      category: .auth, .relaunchApp),
    plain(
      "verify-email", aliases: ["verify.email"],
      summary: "Completes the unverified-email sheet.", category: .auth, .verifyEmail),
  ]
}
