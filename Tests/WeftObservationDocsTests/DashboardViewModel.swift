import WeftContexts
import WeftCore
import WeftObservation

/// CLARITY's dashboard: a client owns the data; loading is the client's job.
struct Dashboard: Sendable, Equatable {
  enum DateRange: Sendable, Equatable { case day, week, month }
  enum Phase: Sendable, Equatable {
    case idle, loading, loaded
    case failed(String)
  }
  struct Summary: Sendable, Equatable {
    var averageHeartRate = 0.0
    var totalSteps = 0
    var sleepHours = 0.0
  }

  var range = DateRange.week
  var phase = Phase.idle
  var summary = Summary()
  var insights: [String] = []
}

actor DashboardClient: Client {
  nonisolated let cell = StateCell(Dashboard(), name: "Dashboard")
  private let fetch: @Sendable (Dashboard.DateRange) async throws -> (Dashboard.Summary, [String])

  init(
    fetch: @escaping @Sendable (Dashboard.DateRange) async throws -> (Dashboard.Summary, [String])
  ) {
    self.fetch = fetch
  }

  func load() async {
    let range = cell.update { state in
      state.phase = .loading
      return state.range
    }
    do {
      let (summary, insights) = try await fetch(range)
      cell.update { state in
        state.summary = summary  // an equal summary invalidates no card that reads it
        state.insights = insights
        state.phase = .loaded
      }
    } catch {
      cell.update { $0.phase = .failed("\(error)") }
    }
  }
}

/// The view model: a context on the client (writes go through it), observed per property.
@MainActor final class DashboardViewModel {
  let model: ObservedContext<DashboardClient>

  init(client: DashboardClient, in parent: Context? = .global) {
    model = ObservedContext(ClientContext(client: client, named: "Dashboard", in: parent))
  }

  var phase: Dashboard.Phase { model.phase }
  var isLoading: Bool { model.phase == .loading }
  var steps: Int { model[\.summary.totalSteps] }  // only a change of steps invalidates
  var heartRate: Double { model[\.summary.averageHeartRate] }
  var insights: [String] { model.insights }
  var range: ContextBinding<Dashboard.DateRange> { model.bind(\.range) }

  func refresh() async {
    await model.context.waitForWrites()  // a range just picked has reached the client
    await model.context.client.load()
  }
}
