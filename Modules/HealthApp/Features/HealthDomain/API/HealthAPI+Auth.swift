import Foundation
import WeftNetworking

extension HealthAPI {
  /// The body of `POST /auth/login`.
  ///
  /// - Note: Isolation: a `Sendable` value.
  public struct Credentials: Codable, Sendable, Equatable {
    /// The account's email address.
    public var email: String
    /// The password, in clear (the transport is TLS).
    public var password: String

    /// Makes the credentials.
    ///
    /// - Complexity: O(1).
    public init(email: String, password: String) {
      self.email = email
      self.password = password
    }
  }

  /// What login and refresh answer: the bearer token, the user and when the token expires.
  ///
  /// - Note: Isolation: a `Sendable` value.
  public struct Session: Codable, Sendable, Equatable, Hashable {
    /// The bearer token requests are signed with.
    public var token: String
    /// The signed-in user's id.
    public var userID: String
    /// When the token stops being accepted.
    public var expiresAt: Date

    /// Makes a session.
    ///
    /// - Complexity: O(1).
    public init(token: String, userID: String, expiresAt: Date) {
      self.token = token
      self.userID = userID
      self.expiresAt = expiresAt
    }
  }

  /// The body of `POST /auth/refresh`: the token to replace.
  ///
  /// - Note: Isolation: a `Sendable` value.
  public struct RefreshRequest: Codable, Sendable, Equatable {
    /// The stale token.
    public var token: String

    /// Makes the request.
    ///
    /// - Complexity: O(1).
    public init(token: String) { self.token = token }
  }

  /// The JSON body of every 4xx/5xx answer: a machine-readable code and a sentence.
  ///
  /// - Note: Isolation: a `Sendable` value.
  public struct ErrorBody: Codable, Sendable, Equatable {
    /// One of `ErrorCode`'s values (unknown codes are kept as they are).
    public var code: String
    /// A sentence for logs.
    public var message: String

    /// Makes an error body.
    ///
    /// - Complexity: O(1).
    public init(code: String, message: String) {
      self.code = code
      self.message = message
    }
  }

  /// The error codes the backend sends in `ErrorBody.code`.
  ///
  /// - Note: Isolation: namespace of constant strings; any isolation.
  public enum ErrorCode {
    /// 401 on login: the email or the password is wrong.
    public static let invalidCredentials = "invalid_credentials"
    /// 403 on login: the account exists but its email was never verified.
    public static let emailNotVerified = "email_not_verified"
    /// 401 on refresh or any signed call: the token is expired or revoked.
    public static let invalidToken = "invalid_token"
  }

  /// Why a login (or a signed call) was refused, read from a `NetworkError`.
  ///
  /// - Note: Isolation: a `Sendable` value.
  public enum AuthFailure: Sendable, Equatable {
    /// 401 `invalid_credentials`: clear the password and say so.
    case invalidCredentials
    /// 403 `email_not_verified`: present the verification sheet.
    case emailNotVerified
    /// 401 `invalid_token` (or a 401 without a known code): back to login.
    case invalidToken
  }

  /// `POST /auth/login`.
  ///
  /// - Complexity: O(1).
  public static func login(email: String, password: String) -> Endpoint<Session> {
    Endpoint(
      .post, Path.login, body: Credentials(email: email, password: password),
      name: "POST \(Path.login)")
  }

  /// `POST /auth/refresh` with the stale `token`.
  ///
  /// - Complexity: O(1).
  public static func refresh(token: String) -> Endpoint<Session> {
    Endpoint(.post, Path.refresh, body: RefreshRequest(token: token), name: "POST \(Path.refresh)")
  }

  /// `POST /auth/logout` (signed by the client's bearer middleware).
  ///
  /// - Complexity: O(1).
  public static func logout() -> Endpoint<NoContent> {
    Endpoint(.post, Path.logout, name: "POST \(Path.logout)")
  }

  /// The auth failure `error` reports, or `nil` when it is not one (offline, 5xx, …).
  ///
  /// Reads the status and the `ErrorBody.code` in the body excerpt: 401 with
  /// `invalid_credentials` → `.invalidCredentials`; 403 with `email_not_verified` →
  /// `.emailNotVerified`; any other 401 → `.invalidToken`.
  ///
  /// - Complexity: O(b), b = body excerpt length (at most 200 bytes).
  public static func authFailure(of error: NetworkError) -> AuthFailure? {
    guard case .http(let status, let excerpt) = error.kind else {
      if case .authentication = error.kind { return .invalidToken }
      return nil
    }
    let code = errorBody(fromExcerpt: excerpt)?.code
    switch (status, code) {
    case (401, ErrorCode.invalidCredentials): return .invalidCredentials
    case (403, ErrorCode.emailNotVerified): return .emailNotVerified
    case (401, _): return .invalidToken
    default: return nil
    }
  }

  /// The `ErrorBody` in a response body excerpt, if it is one.
  ///
  /// - Complexity: O(b).
  public static func errorBody(fromExcerpt excerpt: String) -> ErrorBody? {
    // Plain-text bodies and proxies' pages are not ErrorBody; callers use the status then.
    try? coding.makeDecoder().decode(ErrorBody.self, from: Data(excerpt.utf8))  // try?: nil
  }

  /// An error answer with an `ErrorBody` (for simulated backends and loopback servers).
  ///
  /// - Complexity: O(m), m = message length.
  public static func errorResponse(status: Int, code: String, message: String) -> HTTPResponse {
    // If the JSON body cannot be made, the same status and message go out as text.
    let body = ErrorBody(code: code, message: message)
    let json = try? HTTPResponse.json(body, status: status, coding: coding)  // try?: above
    return json ?? .text(message, status: status)
  }
}
