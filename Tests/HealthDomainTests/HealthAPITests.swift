import Foundation
import HealthDomain
import Testing
import WeftNetworking

@Suite("HealthAPI")
struct HealthAPITests {
  @Test func loginPostsCredentialsAndDecodesTheSession() async throws {
    let (client, backend) = simulatedClient()
    let expires = referenceDate.addingTimeInterval(3600)
    backend.route(.post, HealthAPI.Path.login) { request in
      let credentials = try request.decodeBody(HealthAPI.Credentials.self, coding: HealthAPI.coding)
      #expect(credentials == HealthAPI.Credentials(email: "ada@example.com", password: "pw"))
      return try .json(
        HealthAPI.Session(token: "t1", userID: "u1", expiresAt: expires), coding: HealthAPI.coding)
    }
    let session = try await client.send(HealthAPI.login(email: "ada@example.com", password: "pw"))
    #expect(session == HealthAPI.Session(token: "t1", userID: "u1", expiresAt: expires))
  }

  @Test func authFailuresAreClassified() async throws {
    let (client, backend) = simulatedClient()
    backend.route(.post, HealthAPI.Path.login) { request in
      let credentials = try request.decodeBody(HealthAPI.Credentials.self, coding: HealthAPI.coding)
      if credentials.email == "new@example.com" {
        return HealthAPI.errorResponse(
          status: 403, code: HealthAPI.ErrorCode.emailNotVerified, message: "verify first")
      }
      return HealthAPI.errorResponse(
        status: 401, code: HealthAPI.ErrorCode.invalidCredentials, message: "wrong password")
    }
    backend.route(.post, HealthAPI.Path.refresh) { _ in .text("down", status: 503) }
    func failure(_ endpoint: Endpoint<HealthAPI.Session>) async -> HealthAPI.AuthFailure?? {
      do {
        _ = try await client.send(endpoint)
        return .none
      } catch {
        return .some(HealthAPI.authFailure(of: error))
      }
    }
    #expect(
      await failure(HealthAPI.login(email: "a@example.com", password: "x")) == .invalidCredentials)
    #expect(
      await failure(HealthAPI.login(email: "new@example.com", password: "x")) == .emailNotVerified)
    #expect(await failure(HealthAPI.refresh(token: "old")) == .some(nil))
  }

  @Test func metricsQueryCarriesTheInterval() async throws {
    let (client, backend) = simulatedClient()
    let remote = metric(1, .steps, 1234, at: -60)
    backend.route(.get, HealthAPI.Path.metrics) { request in
      #expect(request.query[HealthAPI.Query.from] == "2024-05-25T12:00:00.000Z")
      #expect(request.query[HealthAPI.Query.to] == "2024-06-01T12:00:00.000Z")
      #expect(HealthAPI.parseQueryDate(request.query[HealthAPI.Query.to]!) == referenceDate)
      return try .json([HealthAPI.MetricDTO(remote)], coding: HealthAPI.coding)
    }
    let metrics = try await client.send(
      HealthAPI.metrics(in: DateRange.week.interval(relativeTo: referenceDate)))
    #expect(metrics.map(\.record) == [remote])
  }

  @Test func upsertAndDeleteCarryTheIdempotencyKey() async throws {
    let (client, backend) = simulatedClient()
    let local = metric(7, .heartRate, 64)
    backend.route(.put, HealthAPI.Path.metric) { request in
      #expect(request.parameters["id"] == local.id.uuidString)
      return try .json(
        try request.decodeBody(HealthAPI.MetricDTO.self, coding: HealthAPI.coding),
        coding: HealthAPI.coding)
    }
    backend.route(.delete, HealthAPI.Path.metric) { _ in HTTPResponse(status: 204) }
    let echoed = try await client.send(HealthAPI.upsertMetric(local, idempotencyKey: "k1"))
    #expect(echoed.record == local)
    _ = try await client.send(HealthAPI.deleteMetric(id: local.id, idempotencyKey: "k2"))
    let sent = backend.exchanges.map(\.request)
    #expect(sent.map { $0.headers[HTTPRequest.idempotencyKeyHeader] } == ["k1", "k2"])
    #expect(sent.map(\.method) == [.put, .delete])
    #expect(backend.exchanges.map(\.route) == [HealthAPI.Path.metric, HealthAPI.Path.metric])
  }

  @Test func insightsAskForALimit() async throws {
    let (client, backend) = simulatedClient()
    let insight = Insight(
      id: uuid(3), title: "Walk", body: "More steps", date: referenceDate, priority: .medium)
    backend.route(.get, HealthAPI.Path.insights) { request in
      #expect(request.query[HealthAPI.Query.limit] == "5")
      return try .json([HealthAPI.InsightDTO(insight)], coding: HealthAPI.coding)
    }
    #expect(try await client.send(HealthAPI.insights(limit: 5)).map(\.record) == [insight])
  }

  @Test func endpointNamesAreTemplated() {
    #expect(
      HealthAPI.upsertMetric(metric(1, .steps, 1), idempotencyKey: "k").name
        == "PUT /metrics/{id}")
    #expect(HealthAPI.deleteMetric(id: uuid(1), idempotencyKey: "k").name == "DELETE /metrics/{id}")
    #expect(HealthAPI.logout().method == .post)
  }
}
