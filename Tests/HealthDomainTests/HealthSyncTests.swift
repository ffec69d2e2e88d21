import Foundation
import HealthDomain
import Testing
import WeftNetworking
import WeftPersistence

@Suite("Health sync operations")
struct HealthSyncTests {
  @Test func saveForSyncWritesTheMetricAndItsOperation() async throws {
    let database = try await healthDatabase()
    let local = metric(1, .steps, 5000)
    let entry = try await database.write { tx in
      try tx.saveForSync(local, operation: .create, idempotencyKey: "key-1")
    }
    #expect(try await database.fetch(HealthMetric.self, id: local.id) == local)
    let pending = try await database.outbox.pending()
    #expect(pending == [entry])
    #expect(entry.modelType == HealthMetric.tableName)
    #expect(entry.recordID == local.id.uuidString)
    #expect(entry.payload == (try HealthSyncPayload.encode(local)))
    let operation = try HealthSyncOperation(entry: entry)
    #expect(
      operation
        == HealthSyncOperation(change: .upsert(local), operation: .create, idempotencyKey: "key-1"))
    #expect(operation.metricID == local.id)
    await database.close()
  }

  @Test func aFailingTransactionWritesNeither() async throws {
    let database = try await healthDatabase()
    struct Boom: Error {}
    await #expect(throws: Boom.self) {
      try await database.write { tx in
        try tx.saveForSync(metric(1, .steps, 1))
        throw Boom()
      }
    }
    #expect(try await database.count(HealthMetric.self) == 0)
    #expect(try await database.outbox.pendingCount() == 0)
    await database.close()
  }

  @Test func deleteForSyncQueuesTheID() async throws {
    let database = try await healthDatabase()
    let local = metric(2, .heartRate, 70)
    try await database.write { tx in try tx.save(local) }
    let entry = try await database.write { tx in
      try tx.deleteForSync(metricID: local.id, idempotencyKey: "del-1")
    }
    #expect(try await database.count(HealthMetric.self) == 0)
    let operation = try HealthSyncOperation(entry: entry)
    #expect(operation.change == .delete(local.id))
    #expect(operation.endpointName == "DELETE /metrics/{id}")
    await database.close()
  }

  @Test func operationsSendThroughTheClient() async throws {
    let database = try await healthDatabase()
    let (client, backend) = simulatedClient()
    backend.route(.put, HealthAPI.Path.metric) { request in
      try .json(
        try request.decodeBody(HealthAPI.MetricDTO.self, coding: HealthAPI.coding),
        coding: HealthAPI.coding)
    }
    backend.route(.delete, HealthAPI.Path.metric) { _ in HTTPResponse(status: 204) }
    let local = metric(3, .sleepDuration, 7.5)
    try await database.write { tx in
      try tx.saveForSync(local, idempotencyKey: "a")
      try tx.saveForSync(local, operation: .update, idempotencyKey: "b")
      try tx.deleteForSync(metricID: local.id, idempotencyKey: "c")
    }
    // Entries of one record are delivered one at a time, in order.
    while let entry = try await database.outbox.dequeue(limit: 10).first {
      try await HealthSyncOperation(entry: entry).send(through: client)
      try await database.outbox.acknowledge(entry)
    }
    #expect(try await database.outbox.pendingCount() == 0)
    let sent = backend.exchanges.map(\.request)
    #expect(sent.map(\.method) == [.put, .put, .delete])
    #expect(sent.map { $0.headers[HTTPRequest.idempotencyKeyHeader] } == ["a", "b", "c"])
    await database.close()
  }

  @Test func foreignEntriesAreRefusedWithAPinnedMessage() async throws {
    let database = try await healthDatabase()
    let foreign = try await database.write { tx in
      try tx.enqueue(.create, modelType: "session", recordID: "1", payload: Data("{}".utf8))
    }
    let garbled = try await database.write { tx in
      try tx.enqueue(
        .create, modelType: HealthMetric.tableName, recordID: "2", payload: Data("{}".utf8))
    }
    #expect(throws: HealthSyncError.unknownModelType("session", entryID: foreign.id)) {
      try HealthSyncOperation(entry: foreign)
    }
    #expect(
      HealthSyncError.unknownModelType("session", entryID: 4).description
        == "outbox entry 4 is for \"session\", not \"health_metric\": deliver it with the sync "
        + "code of the feature that enqueued it")
    do {
      _ = try HealthSyncOperation(entry: garbled)
      Issue.record("decoded an empty payload")
    } catch {
      guard case .undecodablePayload(let id, _) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(id == garbled.id)
      #expect(
        error.description.hasPrefix("outbox entry \(garbled.id) has a payload that is not a health")
      )
    }
    await database.close()
  }
}
