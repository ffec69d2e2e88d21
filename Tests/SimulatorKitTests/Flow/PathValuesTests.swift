import Testing

@testable import SimulatorFlow
@testable import SimulatorKit

/// A path declared with the words it can show (an enumeration's cases): `check` and `run`
/// refuse a comparison with another word before anything runs.
@Suite("Enumeration-valued paths")
struct PathValuesTests {
  static var options: Flow.ParseOptions {
    var options = FlowTesting.options()
    options.pathValues = ["auth.state": ["idle", "authenticating", "authenticated", "failed"]]
    return options
  }

  @Test func aWordThePathNeverShowsIsAnErrorWithTheNearestOne() throws {
    let error = try #require(
      FlowTesting.error("expect auth.state == authenticatd", options: Self.options))
    #expect(error.kind == .unknownEnumWord)
    #expect(error.message == "auth.state is never 'authenticatd'")
    #expect(error.hint?.hasPrefix("did you mean 'authenticated'?") == true)
    #expect(error.location.column == 22)
    // Quoted or not, == or != alike; `wait` too.
    #expect(
      FlowTesting.error("wait auth.state != \"gone\" timeout=1s", options: Self.options)?.kind
        == .unknownEnumWord)
  }

  @Test func theShownWordsOtherOperatorsAndOtherPathsPass() throws {
    _ = try FlowTesting.parse(
      """
      expect auth.state == authenticated
      expect auth.state != "idle"
      expect auth.state contains "auth"
      expect app.tab == anything
      """, options: Self.options)
  }
}
