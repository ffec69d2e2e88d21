import DashboardFeature
import FormsFeature
import Foundation
import HealthDomain

extension AppRuntime {
  // MARK: Dashboard

  /// Shows the dashboard tab and loads it (local data, sync, local data again), with
  /// `range` if given.
  ///
  /// - Complexity: the work it starts, plus `awaitActionEffects()`.
  public func openDashboard(range: DateRange? = nil) async throws(AppRuntimeError) {
    await launch.appState.select(.dashboard)
    let launch = self.launch
    try await run { await launch.loadDashboard(range: range) }
  }

  /// Changes the dashboard's range and reloads it.
  ///
  /// - Complexity: the work it starts, plus `awaitActionEffects()`.
  public func setDashboardRange(_ range: DateRange) async throws(AppRuntimeError) {
    let launch = self.launch
    try await run { await launch.loadDashboard(range: range) }
  }

  /// Reloads the dashboard.
  ///
  /// - Complexity: the work it starts, plus `awaitActionEffects()`.
  public func refreshDashboard() async throws(AppRuntimeError) {
    let launch = self.launch
    try await run { await launch.loadDashboard(range: nil) }
  }

  // MARK: Health form

  /// Sets the health form's fields (nil leaves a field as it is).
  ///
  /// - Complexity: one commit per field set.
  public func setHealthForm(
    metric: MetricType? = nil, value: String? = nil, date: Date? = nil, notes: String? = nil
  ) async {
    let form = launch.form
    if let metric { await form.setMetricType(metric) }
    if let value { await form.setValueText(value) }
    if let date { await form.setDate(date) }
    if let notes { await form.setNotes(notes) }
  }

  /// Submits the health form: a valid entry is saved with its sync operation, the dashboard
  /// updates, and a sync pass is requested; an invalid one shows its validation error.
  ///
  /// - Returns: the submit result (`.none` when validation failed).
  /// - Complexity: the work it starts, plus `awaitActionEffects()`.
  @discardableResult
  public func submitHealthForm() async throws(AppRuntimeError) -> HealthFormSubmitResult {
    let result = await launch.submitForm()
    try await awaitActionEffects()
    return result
  }

  /// Resets the health form.
  ///
  /// - Complexity: O(1): one commit.
  public func resetHealthForm() async {
    await launch.form.reset()
  }

  // MARK: Grade weights

  /// Types `value` into a category's total, each or count field.
  ///
  /// - Throws: `AppRuntimeError.grades` with the form's error (unknown category, invalid
  ///   count, a context error).
  ///
  /// - Complexity: O(1): one commit.
  public func setGradeWeight(
    _ field: GradeWeightField, of category: String, to value: Double
  ) throws(AppRuntimeError) {
    do throws(GradeWeightsError) {
      if field == .count {
        // A count is typed as text: whole numbers without a fraction ("3", not "3.0").
        let whole = value.isFinite && value.rounded() == value && abs(value) < 1e15
        try launch.grades.set(field, of: category, to: whole ? String(Int64(value)) : String(value))
      } else {
        try launch.grades.set(field, of: category, to: value)
      }
    } catch {
      throw .grades(error)
    }
  }

  /// Switches the grade basis (percent or points).
  ///
  /// - Complexity: O(1): one commit.
  public func setGradeBasis(_ basis: GradeBasis) {
    launch.grades.setBasis(basis)
  }

  /// Requests the requestable `name` from the context at `path` (the class context if nil).
  ///
  /// - Throws: `AppRuntimeError.grades` with the context's typed error (missing name,
  ///   condition failed, unknown path).
  ///
  /// - Complexity: O(d) to find the context, d = contexts of the form, plus the contextual.
  public func contextRequest(
    _ name: String, at path: String? = nil
  ) throws(AppRuntimeError) -> GradeRequestedValue {
    do throws(GradeWeightsError) {
      return try launch.grades.request(name, at: path ?? launch.grades.state.classPath)
    } catch {
      throw .grades(error)
    }
  }

  /// Sets or unsets the flag `name` on the context at `path` (the class context if nil).
  ///
  /// - Throws: `AppRuntimeError.grades` (setting a set flag, unsetting an unset one, …).
  /// - Complexity: O(d) to find the context, d = contexts of the form, plus the contextual.
  public func contextFlag(
    _ name: String, set: Bool, at path: String? = nil
  ) throws(AppRuntimeError) {
    let target = path ?? launch.grades.state.classPath
    do throws(GradeWeightsError) {
      if set {
        try launch.grades.setFlag(name, at: target)
      } else {
        try launch.grades.unsetFlag(name, at: target)
      }
    } catch {
      throw .grades(error)
    }
  }

  /// Runs the executable `name` from the context at `path` (the class context if nil).
  ///
  /// - Throws: `AppRuntimeError.grades` (no such executable, …).
  /// - Complexity: O(d) to find the context, d = contexts of the form, plus the contextual.
  public func contextExecute(_ name: String, at path: String? = nil) throws(AppRuntimeError) {
    do throws(GradeWeightsError) {
      try launch.grades.execute(name, at: path ?? launch.grades.state.classPath)
    } catch {
      throw .grades(error)
    }
  }

  /// Posts the notification `name` to the context at `path` (the class context if nil).
  ///
  /// - Throws: `AppRuntimeError.grades` for an unknown path.
  /// - Complexity: O(d) to find the context, d = contexts of the form, plus the contextual.
  public func contextPost(_ name: String, at path: String? = nil) throws(AppRuntimeError) {
    do throws(GradeWeightsError) {
      try launch.grades.post(name, at: path ?? launch.grades.state.classPath)
    } catch {
      throw .grades(error)
    }
  }
}
