import Foundation

extension StepKind {
  /// A health metric the health-data form records: the one list of metric words, which the
  /// runner maps onto the form's own metric type by `rawValue`. Units and valid ranges
  /// belong to the form; the flow language only names the metric.
  ///
  /// - Note: Isolation: a `Sendable` value.
  public enum Metric: String, Sendable, Hashable, Codable, CaseIterable {
    case heartRate
    case restingHeartRate
    case steps
    case bloodOxygen
    case bodyTemperature
    case respiratoryRate
    case sleepDuration
    case sleepDeep
    case sleepREM
    case sleepLight
    case sleepAwake
    case activeCalories
    case distance
    case heartRateVariability
  }

  /// The dashboard's date range; `custom` carries its resolved bounds (inclusive days).
  ///
  /// - Note: Isolation: a `Sendable` value.
  public enum DashboardRange: Sendable, Hashable, Codable {
    /// Today.
    case day
    /// The last seven days.
    case week
    /// The last month.
    case month
    /// From `from` to `to` (`from` is never after `to`).
    case custom(from: Date, to: Date)
  }

  /// The health-data form's fields a `form.set` writes; `nil` leaves a field unchanged.
  ///
  /// `value` is the text typed into the value field, exactly as written in the flow (a
  /// computed number is written in its shortest form, `72` or `36.6`), so a flow can check
  /// the form's own "not a number" and range errors.
  ///
  /// - Note: Isolation: a `Sendable` value.
  public struct HealthFormFields: Sendable, Hashable, Codable {
    /// The metric picker.
    public var metric: Metric?
    /// The value field's text.
    public var value: String?
    /// The date picker.
    public var date: Date?
    /// The notes field.
    public var notes: String?

    /// Creates a set of field edits.
    ///
    /// - Complexity: O(1).
    public init(
      metric: Metric? = nil, value: String? = nil, date: Date? = nil, notes: String? = nil
    ) {
      self.metric = metric
      self.value = value
      self.date = date
      self.notes = notes
    }
  }

  /// A subcontext of the grade-weights form.
  public enum GradeGroup: String, Sendable, Hashable, Codable, CaseIterable {
    /// The assignments subcontext.
    case assignments
    /// The exams subcontext.
    case exams
  }

  /// A field of a grade-weights subcontext: the group's total weight, the weight of each
  /// item, or the number of items.
  public enum GradeField: String, Sendable, Hashable, Codable, CaseIterable {
    /// The group's total weight.
    case total
    /// The weight of each item.
    case each
    /// The number of items (a whole number).
    case count
  }

  /// One edit of the grade-weights form: `assignments.total=40`.
  ///
  /// - Note: Isolation: a `Sendable` value.
  public struct GradeWeight: Sendable, Hashable, Codable {
    /// Which subcontext.
    public var group: GradeGroup
    /// Which field.
    public var field: GradeField
    /// The number typed; a `count` is always a whole number.
    public var value: Double

    /// Creates an edit.
    ///
    /// - Complexity: O(1).
    public init(group: GradeGroup, field: GradeField, value: Double) {
      self.group = group
      self.field = field
      self.value = value
    }
  }

  /// How a class grades: weights in percent (checked to sum to at most 100) or in points.
  public enum GradeBasis: String, Sendable, Hashable, Codable, CaseIterable {
    /// Weights are percentages; the class checks they sum to at most 100.
    case percent
    /// Weights are points; any sum is fine.
    case points
  }

  /// Whether `context.flag` sets or unsets its flag.
  public enum FlagChange: String, Sendable, Hashable, Codable, CaseIterable {
    /// Sets the flag (setting a set flag fails the step).
    case set
    /// Unsets the flag (unsetting an unset flag fails the step).
    case unset
  }

  /// What `realtime` does to the realtime connection: `drop` loses it without a clean close
  /// (the app is expected to reconnect).
  public enum RealtimeAction: String, Sendable, Hashable, Codable, CaseIterable {
    /// Opens the connection.
    case connect
    /// Closes it cleanly.
    case disconnect
    /// Loses it without a close.
    case drop
  }

  /// A fault injected into the simulated backend's responses.
  ///
  /// - Note: Isolation: a `Sendable` value.
  public struct NetworkFault: Sendable, Hashable, Codable {
    /// What goes wrong with a matching request.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
      /// The request never completes; the client's timeout fires.
      case timeout
      /// The connection drops before a response.
      case drop
      /// A 5xx server error (`status`, 500 by default).
      case serverError = "5xx"
      /// 429 Too Many Requests (with `Retry-After` when `retryAfter` is set).
      case rateLimited = "429"
      /// The response body is cut short.
      case truncated
      /// The response body is not valid JSON.
      case garbage
    }

    /// The fault.
    public var kind: Kind
    /// The probability, 0...1, that a matching request fails (1 when not given); draws come
    /// from the flow's seed.
    public var rate: Double
    /// How many requests fail before the fault clears itself; `nil` never clears.
    public var count: Int?
    /// A path pattern (`*` matches any run of characters); `nil` matches every request.
    public var path: String?
    /// The HTTP status of a `5xx` fault (500...599); `nil` means 500.
    public var status: Int?
    /// The `Retry-After` a `429` or `5xx` response carries, if any.
    public var retryAfter: Duration?

    /// Creates a fault.
    ///
    /// - Complexity: O(1).
    public init(
      kind: Kind, rate: Double = 1, count: Int? = nil, path: String? = nil, status: Int? = nil,
      retryAfter: Duration? = nil
    ) {
      self.kind = kind
      self.rate = rate
      self.count = count
      self.path = path
      self.status = status
      self.retryAfter = retryAfter
    }
  }
}
