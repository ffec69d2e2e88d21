import SimulatorKit

extension HealthCommands {
  /// Login, logout and the session.
  static let auth: [Command] = [
    Command(
      "login", summary: "Fills in the login form and submits it.", category: .auth,
      arguments: [
        .keyword("email", .text, required: true),
        .keyword("password", .text, required: true).secret(),
      ]
    ) { app, arguments in
      try await app.runtime.login(
        email: arguments.requiredText("email"), password: arguments.requiredText("password"))
    },
    Command(
      "login.set", summary: "Types into the login form without submitting.", category: .auth,
      arguments: [.keyword("email", .text), .keyword("password", .text).secret()],
      requiresOneOf: ["email", "password"]
    ) { app, arguments in
      app.runtime.setLoginFields(
        email: arguments.text("email"), password: arguments.text("password"))
    },
    plain("login.submit", summary: "Presses the login button.", category: .auth) {
      try await $0.runtime.submitLogin()
    },
    plain(
      "login.dismiss-error", summary: "Dismisses the login error message.", category: .auth
    ) { $0.runtime.dismissLoginError() },
    plain(
      "logout", summary: "Logs out, clearing every client's sensitive state.", category: .auth
    ) { try await $0.runtime.logout() },
    plain("auth.retry", summary: "Retries the last failed authentication.", category: .auth) {
      try await $0.runtime.retryAuth()
    },
    plain(
      "session.expire", summary: "Makes the current session's token expire.", category: .auth
    ) { try await $0.runtime.expireSession() },
    plain(
      "app.relaunch", summary: "Tears the app down and builds it again from its persisted state.",
      category: .auth
    ) { try await $0.runtime.relaunch() },
    plain(
      "verify-email", aliases: ["verify.email"],
      summary: "Completes the unverified-email sheet.", category: .auth
    ) { try await $0.runtime.verifyEmail() },
  ]
}
