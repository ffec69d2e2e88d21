import WeftContexts
import WeftCore
import WeftObservation

/// CLARITY's manual health entry form: the draft lives in a client; saving is its job.
struct HealthDraft: Sendable, Equatable {
  enum Metric: String, Sendable, Equatable, CaseIterable {
    case heartRate, steps, sleepHours

    var validRange: ClosedRange<Double> {
      switch self {
      case .heartRate: 30...220
      case .steps: 0...100_000
      case .sleepHours: 0...24
      }
    }
  }

  var metric = Metric.heartRate
  var value = 0.0
  var notes = ""
  var isSubmitting = false
  var saved: [String] = []
}

actor HealthFormClient: Client {
  nonisolated let cell = StateCell(HealthDraft(), name: "HealthForm")

  func submit() {
    cell.update { draft in
      draft.saved.append("\(draft.metric.rawValue)=\(draft.value) \(draft.notes)")
      draft.value = 0
      draft.notes = ""
    }
  }
}

/// The view model: validated and debounced bindings, all through the form's context.
@MainActor final class HealthFormViewModel {
  let model: ObservedContext<HealthFormClient>
  let value: ObservedValidatedBinding<Double>
  let notes: ContextBinding<String>

  init(client: HealthFormClient, clock: any Clock<Duration>, in parent: Context? = .global) {
    let model = ObservedContext(ClientContext(client: client, named: "HealthForm", in: parent))
    self.model = model
    value = model.bind(\.value) { value in
      let range = model.metric.validRange
      return range.contains(value)
        ? nil : "must be between \(range.lowerBound) and \(range.upperBound)"
    }
    notes = model.bind(\.notes, debouncedFor: .milliseconds(300), clock: clock)
  }

  var metric: ContextBinding<HealthDraft.Metric> { model.bind(\.metric) }
  var errorMessage: String? { value.failure?.message }
  var isValid: Bool { value.failure == nil }
  var saved: [String] { model.saved }

  func submit() async {
    guard isValid else { return }
    model.context.flushDebouncedWrites()  // the notes typed so far
    await model.context.waitForWrites()
    await model.context.client.submit()
  }
}
