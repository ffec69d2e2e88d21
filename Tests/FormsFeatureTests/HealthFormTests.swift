import FormsFeature
import Foundation
import HealthDomain
import Synchronization
import Testing
import WeftPersistence

/// 2024-06-01T12:00:00Z, the reference "now".
let referenceDate = Date(timeIntervalSince1970: 1_717_243_200)

/// A form on an in-memory database, with a fixed "now" and predictable ids.
struct FormHarness {
  let database: Database
  let form: HealthFormClient

  init() async throws {
    var configuration = Database.Configuration()
    configuration.now = { referenceDate }
    database = try await Database.inMemory(
      migrations: HealthSchema.migrations, configuration: configuration)
    let counter = Mutex(0)
    form = HealthFormClient(
      database: database, now: { referenceDate },
      makeID: {
        let next = counter.withLock { value -> Int in
          value += 1
          return value
        }
        return UUID(uuidString: "00000000-0000-0000-0000-\(String(format: "%012d", next))")!
      })
  }

  static let firstID = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
}

@Suite("Health form validation")
struct HealthFormValidationTests {
  private func errors(
    _ type: MetricType, _ text: String, date: Date = referenceDate
  )
    -> [HealthFormValidationError]
  {
    HealthFormFields(metricType: type, valueText: text, date: date).validate(now: referenceDate)
  }

  @Test(arguments: MetricType.allCases)
  func boundsOfEveryMetricType(type: MetricType) {
    let range = type.validRange
    #expect(errors(type, MetricType.format(range.lowerBound - 1)) == [.outOfRange(type)])
    #expect(errors(type, String(range.lowerBound - 0.01)) == [.outOfRange(type)])
    #expect(errors(type, MetricType.format(range.lowerBound)) == [])
    #expect(errors(type, MetricType.format(range.upperBound)) == [])
    #expect(errors(type, String(range.upperBound + 0.01)) == [.outOfRange(type)])
    #expect(errors(type, MetricType.format(range.upperBound + 1)) == [.outOfRange(type)])
    #expect(
      HealthFormValidationError.outOfRange(type).description
        == "\(type.displayName) must be between \(MetricType.format(range.lowerBound)) and "
        + "\(MetricType.format(range.upperBound)) \(type.unit)")
  }

  @Test(arguments: MetricType.allCases)
  func submittingAtTheBoundsSavesAndOutsideRefuses(type: MetricType) async throws {
    let harness = try await FormHarness()
    let range = type.validRange
    await harness.form.setMetricType(type)
    for (value, accepted) in [
      (range.lowerBound - 1, false), (range.lowerBound, true), (range.upperBound, true),
      (range.upperBound + 1, false),
    ] {
      await harness.form.setValueText(MetricType.format(value))
      let result = await harness.form.submit()
      #expect((result.caseName == "success") == accepted, "\(type) \(value)")
      if !accepted {
        #expect(harness.form.state.validationErrors == [.outOfRange(type)])
        #expect(harness.form.state.fields.valueText == MetricType.format(value))
      }
    }
    #expect(try await harness.database.count(HealthMetric.self) == 2)
    #expect(try await harness.database.outbox.pendingCount() == 2)
    await harness.database.close()
  }

  @Test func messagesArePinned() {
    #expect(HealthFormValidationError.notANumber.description == "Please enter a valid number")
    #expect(HealthFormValidationError.futureDate.description == "Date cannot be in the future")
    #expect(
      HealthFormValidationError.outOfRange(.heartRate).description
        == "Heart rate must be between 30 and 220 bpm")
    #expect(
      HealthFormValidationError.outOfRange(.bodyTemperature).description
        == "Body temperature must be between 95 and 105 °F")
    #expect(
      HealthFormValidationError.outOfRange(.steps).description
        == "Steps must be between 0 and 100000 steps")
  }

  @Test(arguments: ["", "  ", "abc", "7 2", "1,5", "nan", "inf", "-"])
  func notANumber(text: String) {
    #expect(errors(.heartRate, text) == [.notANumber])
    #expect(errors(.heartRate, text, date: referenceDate.addingTimeInterval(60)) == [.notANumber])
  }

  @Test func numbersMayBeSurroundedBySpaces() {
    #expect(errors(.heartRate, " 72 ") == [])
    #expect(errors(.distance, "3.5") == [])
  }

  @Test func futureDates() {
    #expect(errors(.steps, "10", date: referenceDate.addingTimeInterval(1)) == [.futureDate])
    #expect(errors(.steps, "10", date: referenceDate) == [])
    #expect(
      errors(.heartRate, "500", date: referenceDate.addingTimeInterval(1))
        == [.futureDate, .outOfRange(.heartRate)])
  }
}

@Suite("Health form submit")
struct HealthFormSubmitTests {
  @Test func submitSavesTheMetricAndItsSyncOperationThenResets() async throws {
    let harness = try await FormHarness()
    let form = harness.form
    let measured = referenceDate.addingTimeInterval(-3600)
    await form.setMetricType(.bloodOxygen)
    await form.setValueText("97")
    await form.setDate(measured)
    await form.setNotes("  after sleep ")
    let result = await form.submit()

    let expected = HealthMetric(
      id: FormHarness.firstID, type: .bloodOxygen, value: 97, unit: "%", date: measured,
      notes: "after sleep", source: HealthMetric.manualEntry, createdAt: referenceDate)
    #expect(result == .success(expected))
    #expect(try await harness.database.fetch(HealthMetric.self, id: expected.id) == expected)
    let entries = try await harness.database.outbox.pending()
    #expect(entries.count == 1)
    #expect(entries.first?.operation == .create)
    #expect(
      entries.first?.idempotencyKey == HealthFormClient.idempotencyKey(forCreating: expected.id))
    #expect(try HealthSyncOperation(entry: entries[0]).change == .upsert(expected))

    let state = form.state
    #expect(state.fields == HealthFormFields(metricType: .bloodOxygen, date: referenceDate))
    #expect(state.result == .success(expected))
    #expect(state.isSubmitting == false)
    #expect(state.validationErrors.isEmpty)
    #expect(state.submittedCount == 1)
    #expect(state.status == "success")
    await harness.database.close()
  }

  @Test func aFailingTransactionWritesNeitherAndKeepsTheEntry() async throws {
    let harness = try await FormHarness()
    // The enqueue will fail (its idempotency key is taken) after the metric's save: the
    // transaction must roll the save back.
    let key = HealthFormClient.idempotencyKey(forCreating: FormHarness.firstID)
    try await harness.database.write { tx in
      try tx.enqueue(
        .create, modelType: "other", recordID: "x", payload: Data("{}".utf8),
        idempotencyKey: key)
    }
    await harness.form.setMetricType(.steps)
    await harness.form.setValueText("8000")
    await harness.form.setNotes("walk")
    let result = await harness.form.submit()

    guard case .failure(let message) = result else {
      Issue.record("expected a failure, got \(result)")
      return
    }
    #expect(
      message
        == "Could not save the measurement (:memory:: a constraint failed on \"weft_outbox\" for "
        + "id \(key) (UNIQUE constraint failed: weft_outbox.idempotency_key); the transaction "
        + "was rolled back. Check for a duplicate key, a missing required value or a dangling "
        + "reference.). Nothing was saved; your entry is still here, try again.")
    #expect(try await harness.database.count(HealthMetric.self) == 0)
    #expect(try await harness.database.outbox.pending().map(\.modelType) == ["other"])
    let state = harness.form.state
    #expect(state.result == result)
    #expect(state.isSubmitting == false)
    #expect(
      state.fields
        == HealthFormFields(
          metricType: .steps, valueText: "8000", date: referenceDate, notes: "walk"))
    await harness.database.close()
  }

  @Test func aRefusedSubmitKeepsTheFieldsAndWritesNothing() async throws {
    let harness = try await FormHarness()
    await harness.form.setValueText("abc")
    await harness.form.setNotes("typo")
    #expect(await harness.form.submit() == .none)
    #expect(harness.form.state.validationMessage == "Please enter a valid number")
    #expect(harness.form.state.status == "invalid")
    #expect(harness.form.state.fields.valueText == "abc")
    #expect(harness.form.state.fields.notes == "typo")
    #expect(try await harness.database.count(HealthMetric.self) == 0)
    #expect(try await harness.database.outbox.pendingCount() == 0)
    // Editing clears the errors.
    await harness.form.setValueText("72")
    #expect(harness.form.state.validationErrors.isEmpty)
    #expect(harness.form.state.canSubmit)
    await harness.database.close()
  }

  @Test func validateShowsErrorsWithoutSubmitting() async throws {
    let harness = try await FormHarness()
    await harness.form.setFields(
      HealthFormFields(
        metricType: .respiratoryRate, valueText: "40",
        date: referenceDate.addingTimeInterval(60)))
    #expect(await harness.form.validate() == [.futureDate, .outOfRange(.respiratoryRate)])
    #expect(harness.form.state.validationMessage == "Date cannot be in the future")
    #expect(try await harness.database.count(HealthMetric.self) == 0)
    await harness.database.close()
  }

  @Test func resetEmptiesTheFormAndKeepsTheType() async throws {
    let harness = try await FormHarness()
    await harness.form.setMetricType(.sleepREM)
    await harness.form.setValueText("x")
    await harness.form.submit()
    await harness.form.reset()
    #expect(harness.form.state == HealthFormState(date: referenceDate, metricType: .sleepREM))
    await harness.database.close()
  }

  @Test func editingASavedMetricQueuesAnUpdate() async throws {
    let harness = try await FormHarness()
    await harness.form.setMetricType(.steps)
    await harness.form.setValueText("4000")
    guard case .success(let created) = await harness.form.submit() else {
      Issue.record("the create failed")
      return
    }
    await harness.form.edit(created)
    #expect(harness.form.state.fields.valueText == "4000")
    await harness.form.setValueText("4500")
    guard case .success(let updated) = await harness.form.submit() else {
      Issue.record("the update failed")
      return
    }
    #expect(updated.id == created.id)
    #expect(updated.createdAt == created.createdAt)
    #expect(updated.value == 4500)
    #expect(harness.form.state.editing == nil)
    #expect(try await harness.database.count(HealthMetric.self) == 1)
    let entries = try await harness.database.outbox.pending()
    #expect(entries.map(\.operation) == [.create, .update])
    #expect(
      entries.last?.idempotencyKey
        == HealthFormClient.idempotencyKey(
          forUpdating: created.id,
          operation: UUID(uuidString: "00000000-0000-0000-0000-000000000002")!))
    #expect(try HealthSyncOperation(entry: entries[1]).change == .upsert(updated))
    await harness.database.close()
  }

  @Test func theFormIsFreed() async throws {
    weak var weakForm: HealthFormClient?
    weak var weakDatabase: Database?
    do {
      let harness = try await FormHarness()
      weakForm = harness.form
      weakDatabase = harness.database
      await harness.form.setValueText("70")
      await harness.form.submit()
      await harness.database.close()
    }
    #expect(weakForm == nil)
    #expect(weakDatabase == nil)
  }
}
