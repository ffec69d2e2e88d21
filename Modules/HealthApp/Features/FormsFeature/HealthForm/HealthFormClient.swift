import Foundation
import HealthDomain
import WeftCore
import WeftPersistence

/// The health-data entry form: the fields, validation, and a submit that saves the metric
/// and queues its sync operation in one transaction.
///
/// ```swift
/// let form = HealthFormClient(database: database, now: { clock.date })
/// await form.setMetricType(.steps)
/// await form.setValueText("8000")
/// let result = await form.submit()        // .success(metric): saved, queued, reset
/// form.state.validationMessage           // nil
/// ```
///
/// > Important: A refused or failed submit keeps every field as typed. Only a successful one
/// > resets the form (value, notes and date; the metric type stays selected).
///
/// # Performance
/// Each edit is one commit. A submit is one validation, one write transaction (an upsert and
/// an outbox insert) and two commits (submitting, then the result).
///
/// - Note: Isolation: an actor; reads of `state` and subscriptions are `nonisolated`.
/// - Note: Allocations: the metric and the outbox payload per submit.
public actor HealthFormClient: Client {
  /// The form's state.
  public nonisolated let cell: StateCell<HealthFormState>
  private let database: Database
  private let now: @Sendable () -> Date
  private let makeID: @Sendable () -> UUID

  /// Makes an empty form dated `now()`.
  ///
  /// - Parameters:
  ///   - database: where metrics and their sync operations are written.
  ///   - now: "now", for the default date and the future-date check (injected).
  ///   - makeID: the id of each new metric (injected so tests know it).
  ///   - monitor: where the form's cell is counted and whose queue delivers its MainActor
  ///     changes (the process-wide one by default).
  /// - Complexity: O(1).
  /// - Note: Isolation: any (an actor's initializer).
  public init(
    database: Database, now: @escaping @Sendable () -> Date,
    makeID: @escaping @Sendable () -> UUID = { UUID() }, monitor: PerformanceMonitor = .shared
  ) {
    self.database = database
    self.now = now
    self.makeID = makeID
    self.cell = StateCell(
      HealthFormState(date: now()), name: "HealthFormClient", monitor: monitor)
  }

  /// The idempotency key of the create operation of metric `id`.
  ///
  /// - Complexity: O(1).
  public static func idempotencyKey(forCreating id: UUID) -> String {
    "metric-create-\(id.uuidString)"
  }

  /// The idempotency key of one update of metric `id`; `operation` makes it unique per
  /// update.
  ///
  /// - Complexity: O(1).
  public static func idempotencyKey(forUpdating id: UUID, operation: UUID) -> String {
    "metric-update-\(id.uuidString)-\(operation.uuidString)"
  }

  // MARK: Editing

  /// Loads a saved metric into the form; the next successful submit updates it (same id,
  /// source and creation date) and queues an `.update` sync operation.
  ///
  /// - Complexity: O(1), one commit.
  public func edit(_ metric: HealthMetric) {
    cell.update { state in
      state.fields = HealthFormFields(
        metricType: metric.type, valueText: MetricType.format(metric.value), date: metric.date,
        notes: metric.notes ?? "")
      state.editing = metric
      state.result = .none
      state.validationErrors = []
    }
  }

  /// Selects the metric type (its unit and range follow).
  ///
  /// - Complexity: O(1).
  public func setMetricType(_ type: MetricType) { edit { $0.metricType = type } }
  /// Sets the value text.
  ///
  /// - Complexity: O(1).
  public func setValueText(_ text: String) { edit { $0.valueText = text } }
  /// Sets the date.
  ///
  /// - Complexity: O(1).
  public func setDate(_ date: Date) { edit { $0.date = date } }
  /// Sets the notes.
  ///
  /// - Complexity: O(1).
  public func setNotes(_ notes: String) { edit { $0.notes = notes } }

  /// Sets every field at once (one commit).
  ///
  /// - Complexity: O(1), one commit.
  public func setFields(_ fields: HealthFormFields) { edit { $0 = fields } }

  /// One edit: a commit that changes the fields and clears the last result and errors.
  private func edit(_ body: (inout HealthFormFields) -> Void) {
    cell.update { state in
      body(&state.fields)
      state.result = .none
      state.validationErrors = []
    }
  }

  /// Validates the fields now and shows the errors, without submitting.
  ///
  /// - Returns: the errors (empty when valid).
  /// - Complexity: O(t), t = value text length; one commit.
  @discardableResult
  public func validate() -> [HealthFormValidationError] {
    let errors = cell.state.fields.validate(now: now())
    cell.update { $0.validationErrors = errors }
    return errors
  }

  // MARK: Submitting

  /// Validates; if valid, saves the metric and enqueues its sync operation in one write
  /// transaction, then resets the form: a `.create` with `idempotencyKey(forCreating:)` for
  /// a new metric, an `.update` with `idempotencyKey(forUpdating:operation:)` for one loaded
  /// with `edit(_:)`.
  ///
  /// - Returns: `.none` when validation refused it (see `validationErrors`), `.success`
  ///   with the saved metric, or `.failure` with the reason (nothing was written; the fields
  ///   are kept). A submit while one is saving returns `.none` and does nothing.
  /// - Complexity: O(t) validation + one write transaction; two commits.
  /// - Note: Isolation: the actor; the write runs on the database's writer connection.
  @discardableResult
  public func submit() async -> HealthFormSubmitResult {
    guard !cell.state.isSubmitting else { return .none }
    let fields = cell.state.fields
    let errors = fields.validate(now: now())
    guard errors.isEmpty, let value = fields.value else {
      cell.update { state in
        state.validationErrors = errors
        state.result = .none
      }
      return .none
    }
    let stamp = now()
    let notes = fields.notes.trimmingCharacters(in: .whitespacesAndNewlines)
    let original = cell.state.editing
    let metric = HealthMetric(
      id: original?.id ?? makeID(), type: fields.metricType, value: value, date: fields.date,
      notes: notes.isEmpty ? nil : notes, source: original?.source ?? HealthMetric.manualEntry,
      createdAt: original?.createdAt ?? stamp)
    let operation: OutboxOperation = original == nil ? .create : .update
    let key =
      original == nil
      ? HealthFormClient.idempotencyKey(forCreating: metric.id)
      : HealthFormClient.idempotencyKey(forUpdating: metric.id, operation: makeID())
    cell.update { state in
      state.validationErrors = []
      state.result = .none
      state.isSubmitting = true
    }
    do {
      try await database.write { tx in
        try tx.saveForSync(metric, operation: operation, idempotencyKey: key)
      }
    } catch {
      let result = HealthFormSubmitResult.failure(HealthFormMessages.saveFailed(error))
      cell.update { state in
        state.isSubmitting = false
        state.result = result
      }
      return result
    }
    let result = HealthFormSubmitResult.success(metric)
    cell.update { state in
      state.fields = HealthFormFields(metricType: state.fields.metricType, date: stamp)
      state.editing = nil
      state.isSubmitting = false
      state.result = result
      state.submittedCount += 1
    }
    return result
  }

  /// Empties the form (value, notes, errors, result, the metric being edited; the date
  /// becomes `now()`), keeping the metric type.
  ///
  /// - Complexity: O(1), one commit.
  public func reset() {
    let date = now()
    cell.update { state in
      let type = state.fields.metricType
      let count = state.submittedCount
      state = HealthFormState(date: date, metricType: type)
      state.submittedCount = count
    }
  }
}

/// The form's sentences other than validation. Tests pin them.
///
/// - Note: Isolation: stateless; any isolation.
public enum HealthFormMessages {
  /// The save (or the enqueue) failed; nothing was written.
  ///
  /// - Complexity: O(d), d = the error's description.
  public static func saveFailed(_ error: any Error) -> String {
    "Could not save the measurement (\(error)). Nothing was saved; your entry is still here, "
      + "try again."
  }
}
