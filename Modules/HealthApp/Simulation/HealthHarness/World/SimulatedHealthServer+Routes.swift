import Foundation
import HealthDomain
import WeftNetworking

extension SimulatedHealthServer {
  func login(_ request: SimulatedRequest) -> HTTPResponse {
    guard
      let credentials = try? request.decodeBody(  // try?: a 400 answer, as from a server
        HealthAPI.Credentials.self, coding: HealthAPI.coding)
    else { return badRequest("the body is not {email, password}") }
    let date = now()
    let expiresAt = date.addingTimeInterval(Double(sessionLifetime.components.seconds))
    let outcome = state.withLock { state -> LoginOutcome in
      guard let account = state.accounts[credentials.email.lowercased()],
        account.password == credentials.password
      else {
        return .refused(
          HealthAPI.errorResponse(
            status: 401, code: HealthAPI.ErrorCode.invalidCredentials,
            message: "the email or password is incorrect"))
      }
      guard account.verified else {
        return .refused(
          HealthAPI.errorResponse(
            status: 403, code: HealthAPI.ErrorCode.emailNotVerified,
            message: "verify \(account.email) first"))
      }
      return .issued(Self.issue(for: account.id, expiresAt: expiresAt, in: &state))
    }
    switch outcome {
    case .issued(let session): return json(session)
    case .refused(let response): return response
    }
  }

  func refresh(_ request: SimulatedRequest) -> HTTPResponse {
    guard
      let body = try? request.decodeBody(  // try?: a 400 answer, as from a real server
        HealthAPI.RefreshRequest.self, coding: HealthAPI.coding)
    else { return badRequest("the body is not {token}") }
    let date = now()
    let expiresAt = date.addingTimeInterval(Double(sessionLifetime.components.seconds))
    let session = state.withLock { state -> HealthAPI.Session? in
      guard let token = state.tokens[body.token], !token.revoked, token.expiresAt > date else {
        return nil
      }
      state.tokens[body.token]?.revoked = true
      return Self.issue(for: token.userID, expiresAt: expiresAt, in: &state)
    }
    guard let session else { return invalidToken() }
    return json(session)
  }

  func logout(_ request: SimulatedRequest) -> HTTPResponse {
    if let token = bearer(request.request) {
      state.withLock { $0.tokens[token]?.revoked = true }
    }
    return HTTPResponse(status: 204)
  }

  func metrics(_ request: SimulatedRequest) -> HTTPResponse {
    guard let user = authorize(request.request) else { return invalidToken() }
    let from = request.query[HealthAPI.Query.from].flatMap(HealthAPI.parseQueryDate) ?? .distantPast
    let to = request.query[HealthAPI.Query.to].flatMap(HealthAPI.parseQueryDate) ?? .distantFuture
    let list = state.withLock { state in
      (state.metrics[user] ?? [:]).values
        .filter { $0.date >= from && $0.date <= to }
        .sorted { ($0.date, $0.id.uuidString) < ($1.date, $1.id.uuidString) }
    }
    return json(list)
  }

  func upsert(_ request: SimulatedRequest) -> HTTPResponse {
    guard let user = authorize(request.request) else { return invalidToken() }
    let key = request.request.headers[HTTPRequest.idempotencyKeyHeader]
    if let replay = replay(user: user, key: key) { return replay }
    guard
      let metric = try? request.decodeBody(  // try?: a 400 answer, as from a real server
        HealthAPI.MetricDTO.self, coding: HealthAPI.coding)
    else { return badRequest("the body is not a metric") }
    guard metric.id.uuidString.lowercased() == request.parameters["id"]?.lowercased() else {
      return badRequest("the body's id \(metric.id) does not match the path")
    }
    let response = json(metric)
    state.withLock { state in
      if state.metrics[user]?[metric.id] == metric { state.duplicates += 1 }
      state.metrics[user, default: [:]][metric.id] = metric
      state.appliedWrites += 1
      if let key { state.stored[user + "|" + key] = response }
    }
    return response
  }

  func delete(_ request: SimulatedRequest) -> HTTPResponse {
    guard let user = authorize(request.request) else { return invalidToken() }
    let key = request.request.headers[HTTPRequest.idempotencyKeyHeader]
    if let replay = replay(user: user, key: key) { return replay }
    guard let id = request.parameters["id"].flatMap(UUID.init(uuidString:)) else {
      return badRequest("the path does not end with a metric id")
    }
    let response = HTTPResponse(status: 204)
    state.withLock { state in
      if state.metrics[user]?[id] == nil { state.duplicates += 1 }
      state.metrics[user]?[id] = nil
      state.appliedWrites += 1
      if let key { state.stored[user + "|" + key] = response }
    }
    return response
  }

  func insights(_ request: SimulatedRequest) -> HTTPResponse {
    guard authorize(request.request) != nil else { return invalidToken() }
    let limit = request.query[HealthAPI.Query.limit].flatMap(Int.init) ?? 5
    let list = state.withLock { state in
      Array(state.insights.sorted { $0.date > $1.date }.prefix(max(0, limit)))
    }
    return json(list)
  }

  // MARK: Helpers

  private enum LoginOutcome {
    case issued(HealthAPI.Session)
    case refused(HTTPResponse)
  }

  static func issue(
    for userID: String, expiresAt: Date, in state: inout State
  ) -> HealthAPI.Session {
    state.issued += 1
    let token = "token-\(state.issued)"
    state.tokens[token] = Token(userID: userID, expiresAt: expiresAt)
    return HealthAPI.Session(token: token, userID: userID, expiresAt: expiresAt)
  }

  private func replay(user: String, key: String?) -> HTTPResponse? {
    guard let key else { return nil }
    return state.withLock { state in
      guard let stored = state.stored[user + "|" + key] else { return nil }
      state.replayedWrites += 1
      return stored
    }
  }

  private func bearer(_ request: HTTPRequest) -> String? {
    guard let header = request.headers["Authorization"], header.hasPrefix("Bearer ") else {
      return nil
    }
    return String(header.dropFirst("Bearer ".count))
  }

  private func authorize(_ request: HTTPRequest) -> String? {
    guard let token = bearer(request) else { return nil }
    let date = now()
    return state.withLock { state in
      guard let issued = state.tokens[token], !issued.revoked, issued.expiresAt > date else {
        return nil
      }
      return issued.userID
    }
  }

  private func json(_ value: some Encodable) -> HTTPResponse {
    (try? HTTPResponse.json(value, coding: HealthAPI.coding))  // try?: a 500 answer, below
      ?? .text("the simulated server could not encode its answer", status: 500)
  }

  private func badRequest(_ message: String) -> HTTPResponse {
    HealthAPI.errorResponse(status: 400, code: "bad_request", message: message)
  }

  private func invalidToken() -> HTTPResponse {
    HealthAPI.errorResponse(
      status: 401, code: HealthAPI.ErrorCode.invalidToken,
      message: "the bearer token is missing, expired or revoked")
  }
}
