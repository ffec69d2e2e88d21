import AuthFeature
import Foundation
import WeftCore
import WeftPersistence

/// An `AuthClient` answering from a table, recording calls; an unexpected email fails the
/// call with a message naming the stub to add.
final class StubServer: Sendable {
  private struct State {
    var answers: [String: Result<AuthSession, AuthError>] = [:]
    var logins: [Credentials] = []
    var logouts: [String] = []
  }

  private let state = Locked(State())

  func answer(_ email: String, with result: Result<AuthSession, AuthError>) {
    state.withLock { $0.answers[email] = result }
  }

  var logins: [Credentials] { state.withLock { $0.logins } }
  var logouts: [String] { state.withLock { $0.logouts } }

  var client: AuthClient {
    AuthClient(
      login: { [self] credentials in
        state.withLock { state in
          state.logins.append(credentials)
          return state.answers[credentials.email]
            ?? .failure(.network("no stub for \(credentials.email): call answer(_:with:)"))
        }
      },
      logout: { [self] token in state.withLock { $0.logouts.append(token) } })
  }
}

/// A token sink that remembers what it was given.
final class TokenSink: Sendable {
  private let token = Locked<String?>(nil)
  var current: String? { token.withLock { $0 } }
  func set(_ value: String?) { token.withLock { $0 = value } }
}

enum Fixture {
  static let now = Date(timeIntervalSince1970: 1_741_608_000)
  static let ada = Credentials(email: "ada@example.com", password: "correct-horse")
  static let session = AuthSession(
    token: "token-1", userID: "user-ada", email: "ada@example.com",
    expiresAt: now.addingTimeInterval(3600))

  static func database() async throws -> Database {
    try await Database.inMemory(migrations: AuthSchema.migrations(after: 0))
  }

  /// The secure store that goes with `database`: one per database object, so every
  /// `SessionStore(database:)` a test makes over one database shares the token, as the app's
  /// launches share one store.
  static func secrets(for database: Database) -> InMemorySecureStorage {
    stores.withLock { stores in
      stores.removeAll { $0.database == nil }
      if let known = stores.first(where: { $0.database === database }) { return known.secrets }
      let secrets = InMemorySecureStorage()
      stores.append(DatabaseSecrets(database: database, secrets: secrets))
      return secrets
    }
  }

  private struct DatabaseSecrets {
    weak var database: Database?
    let secrets: InMemorySecureStorage
  }

  private static let stores = Locked<[DatabaseSecrets]>([])

  static func dependencies(
    server: StubServer, database: Database, tokens: TokenSink,
    now: Date = Fixture.now
  ) -> AuthDependencies {
    AuthDependencies(
      client: server.client, sessions: SessionStore(database: database),
      setToken: { tokens.set($0) }, now: { now })
  }
}

extension SessionStore {
  /// The store over `database` and its fixture secrets (`Fixture.secrets(for:)`).
  init(database: Database) {
    self.init(database: database, secrets: Fixture.secrets(for: database))
  }
}
