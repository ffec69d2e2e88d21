import AuthFeature
import Foundation
import HealthDomain
import Testing
import WeftCore
import WeftNetworking

@Suite("AuthClient.http")
struct AuthClientTests {
  static func client(answering response: HTTPResponse) -> (AuthClient, SimulatedTransport) {
    let transport = SimulatedTransport(clock: TestClock())
    transport.route(.post, HealthAPI.Path.login) { _ in response }
    transport.route(.post, HealthAPI.Path.logout) { _ in HTTPResponse(status: 204) }
    let http = HTTPClient(
      baseURL: URL(string: "https://sim.test")!, transport: transport, coding: HealthAPI.coding,
      defaultTimeout: nil)
    return (AuthClient.http(http), transport)
  }

  @Test func aSessionComesBackWithTheEmailItWasFor() async throws {
    let expires = Fixture.now.addingTimeInterval(3600)
    let response = try HTTPResponse.json(
      HealthAPI.Session(token: "token-9", userID: "user-ada", expiresAt: expires),
      coding: HealthAPI.coding)
    let (client, _) = Self.client(answering: response)
    let result = await client.login(Fixture.ada)
    #expect(
      result
        == .success(
          AuthSession(
            token: "token-9", userID: "user-ada", email: "ada@example.com", expiresAt: expires)))
  }

  @Test func serverRefusalsMapToAuthErrors() async {
    let cases: [(HTTPResponse, AuthError)] = [
      (
        HealthAPI.errorResponse(
          status: 401, code: HealthAPI.ErrorCode.invalidCredentials, message: "no"),
        .invalidCredentials
      ),
      (
        HealthAPI.errorResponse(
          status: 403, code: HealthAPI.ErrorCode.emailNotVerified, message: "no"),
        .emailNotVerified(email: "ada@example.com")
      ),
      (.text("down", status: 503), .network("HTTP 503")),
    ]
    for (response, expected) in cases {
      let (client, _) = Self.client(answering: response)
      #expect(await client.login(Fixture.ada) == .failure(expected))
    }
  }

  @Test func logoutSendsTheTokenItRevokes() async {
    let (client, transport) = Self.client(answering: HTTPResponse(status: 500))
    await client.logout("token-7")
    #expect(transport.exchanges.map { $0.request.headers["Authorization"] } == ["Bearer token-7"])
  }
}
