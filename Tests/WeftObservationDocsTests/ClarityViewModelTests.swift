import Foundation
import Testing
import WeftContexts
import WeftCore
import WeftObservation
import WeftObservationTestSupport

struct LoginRefused: Error {}

/// The view models of docs/swiftui.md, run, and the guide checked against these sources.
@MainActor
@Suite struct ClarityViewModelTests {
  @Test func authLogsInAndTheButtonIsInvalidatedOnlyWhenItFlips() async {
    let viewModel = AuthViewModel { credentials in
      guard credentials.password == "secret" else { throw LoginRefused() }
      return "token-\(credentials.email)"
    }
    let button = Tracker { viewModel.isLoginButtonEnabled }
    let email = Tracker { viewModel.email.get() }

    viewModel.email.set("a")
    viewModel.email.set("ad")
    viewModel.email.set("ada")
    #expect(button.invalidations == 0)  // still disabled: no password yet
    #expect(email.invalidations == 1)
    viewModel.password.set("s")
    #expect(button.invalidations == 1)
    button.renderIfDirty()
    viewModel.password.set("secret")
    #expect(button.invalidations == 1)  // still enabled
    #expect(button.seen == true)

    let authenticated = Tracker { viewModel.isAuthenticated }
    viewModel.login()
    await viewModel.store.system.waitUntilIdle()
    viewModel.store.cell.deliverPendingMainActorChanges()
    #expect(viewModel.isAuthenticated)
    #expect(authenticated.invalidations == 1)
    #expect(viewModel.store.state.token == "token-ada")
    #expect(viewModel.password.get() == "")
  }

  @Test func dashboardCardsAreInvalidatedOnlyByTheirOwnValues() async {
    let client = DashboardClient { range in
      (Dashboard.Summary(averageHeartRate: 62, totalSteps: range == .day ? 900 : 9000), ["ok"])
    }
    let viewModel = DashboardViewModel(client: client, in: nil)
    let steps = Tracker { viewModel.steps }
    let heart = Tracker { viewModel.heartRate }

    await viewModel.refresh()
    #expect(viewModel.phase == .loaded)
    #expect(steps.invalidations == 1)
    #expect(heart.invalidations == 1)
    steps.renderIfDirty()
    heart.renderIfDirty()

    viewModel.range.set(.day)
    await viewModel.refresh()  // only the steps changed
    #expect(steps.invalidations == 2)
    #expect(heart.invalidations == 1)
    await viewModel.refresh()  // the same data again: no card invalidated
    #expect(steps.invalidations == 2)
    #expect(viewModel.steps == 900)
  }

  @Test func healthFormValidatesDebouncesAndSubmitsThroughItsContext() async {
    let clock = TestClock()
    let client = HealthFormClient()
    let viewModel = HealthFormViewModel(client: client, clock: clock, in: nil)
    let error = Tracker { viewModel.errorMessage }

    viewModel.value.set(500)
    #expect(error.invalidations == 1)
    #expect(viewModel.errorMessage == "must be between 30.0 and 220.0")
    viewModel.value.set(72)
    #expect(viewModel.isValid)
    viewModel.notes.set("after")
    viewModel.notes.set("after a run")
    #expect(viewModel.notes.get() == "after a run")  // shown before it is written

    await viewModel.submit()
    #expect(viewModel.saved == ["heartRate=72.0 after a run"])
    #expect(client.state.notes == "")
    #expect(clock.now == .init())  // nothing waited for the clock: submit flushed
  }

  @Test func theGuideShowsTheseSourcesVerbatim() throws {
    let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    let guide = here.appendingPathComponent("../../docs/swiftui.md").standardized
    let text = try String(contentsOf: guide, encoding: .utf8)
    for name in ["AuthViewModel", "DashboardViewModel", "HealthFormViewModel"] {
      let source = try String(
        contentsOf: here.appendingPathComponent("\(name).swift"), encoding: .utf8)
      let marker = "<!-- source: Tests/WeftObservationDocsTests/\(name).swift -->\n```swift\n"
      guard let start = text.range(of: marker) else {
        Issue.record("docs/swiftui.md has no block marked \(marker)")
        continue
      }
      let rest = text[start.upperBound...]
      let block = rest[..<(rest.range(of: "\n```\n")?.lowerBound ?? rest.endIndex)]
      #expect(block + "\n" == source, "docs/swiftui.md's \(name) block differs from \(name).swift")
    }
  }
}
