import AppFeature
import FormsFeature
import Testing

@MainActor
@Suite("App state, grade weights and misuse through the runtime")
struct AppStateTests {
  @Test func tabsNavigationSheetsAlertsAndFlags() async throws {
    let app = try await simulatedApp()
    try await app.selectTab("insights")
    #expect(app.value("app.tab") == .string("insights"))
    await app.pushNavigation("insight")
    await app.pushNavigation("source")
    #expect(app.value("app.navigation.depth") == .int(2))
    #expect(app.value("app.navigation.top") == .string("source"))
    try await app.popNavigation()
    try await app.popNavigation()
    try await app.presentSheet("healthForm")
    #expect(app.value("app.sheet") == .string("healthForm"))
    try await app.dismissSheet()
    try await app.setFeature("offlineMode", enabled: true)
    #expect(app.value("app.flags.offlineMode") == .bool(true))
    try await app.setFeature("charts.v2", enabled: true)
    #expect(app.launch.appState.state.featureFlags["charts.v2"])
    await app.shutDown()
  }

  @Test func misuseComesBackAsErrorsWithTheirMessages() async throws {
    let app = try await simulatedApp()
    await #expect(throws: AppRuntimeError.app(.unknownTab("home"))) {
      try await app.selectTab("home")
    }
    await #expect(throws: AppRuntimeError.app(.nothingToPop)) { try await app.popNavigation() }
    await #expect(throws: AppRuntimeError.app(.noSheet)) { try await app.dismissSheet() }
    await #expect(throws: AppRuntimeError.app(.noAlert)) { try await app.dismissAlert() }
    await #expect(throws: AppRuntimeError.app(.unknownSheet("modal"))) {
      try await app.presentSheet("modal")
    }
    await #expect(throws: AppRuntimeError.app(.invalidFlagName("no spaces"))) {
      try await app.setFeature("no spaces", enabled: true)
    }
    await #expect(
      throws: AppRuntimeError.app(.realtime("the realtime connection is already disconnected"))
    ) {
      try await app.realtimeDisconnect()
    }
    #expect(
      AppActionError.unknownTab("home").description
        == "no tab is named \"home\"; tabs: dashboard, health, insights, profile")
    #expect(
      AppActionError.unknownSheet("modal").description
        == "no sheet is named \"modal\"; sheets: emailVerification, healthForm, gradeWeights, settings"
    )
    #expect(
      AppActionError.nothingToPop.description
        == "the navigation stack is at its root: there is nothing to pop")
    #expect(
      AppActionError.notAuthenticated(action: "session.expire").description
        == "session.expire needs a signed-in user: log in first")
    #expect(
      AppRuntimeError.realClock.description
        == "time cannot be advanced off the deterministic runtime: the app runs on the real clock")
    await app.shutDown()
  }

  @Test func gradeWeightsOverOneHundredPercentAreFlagged() async throws {
    let app = try await simulatedApp()
    #expect(app.value("grades.basis") == .string("percent"))
    try app.setGradeWeight(.total, of: "assignments", to: 60)
    #expect(app.value("grades.assignments.total") == .double(60))
    #expect(app.value("grades.assignments.each") == .double(15))
    #expect(app.value("grades.overLimit") == .bool(false))
    try app.setGradeWeight(.each, of: "exams", to: 25)
    #expect(app.value("grades.exams.total") == .double(50))
    #expect(app.value("grades.total") == .double(110))
    #expect(app.value("grades.overLimit") == .bool(true))
    app.setGradeBasis(.points)
    #expect(app.value("grades.basis") == .string("points"))
    #expect(app.value("grades.overLimit") == .bool(false))
    try app.setGradeWeight(.count, of: "exams", to: 3)
    #expect(app.value("grades.exams.count") == .int(3))
    await app.shutDown()
  }

  @Test func contextMisuseReturnsTheContextsTypedErrors() async throws {
    let app = try await simulatedApp()
    #expect(try app.contextRequest("grade-basis", at: "COP101/Exams") == .basis(.percent))
    #expect(throws: AppRuntimeError.self) { try app.contextRequest("no-such-name") }
    #expect(throws: AppRuntimeError.self) { try app.contextRequest("grade-basis", at: "COP999") }
    try app.contextFlag("total-field-set-by-user", set: true, at: "COP101/Exams")
    do {
      try app.contextFlag("total-field-set-by-user", set: true, at: "COP101/Exams")
      Issue.record("setting a set flag should fail")
    } catch {
      guard case .grades(.context) = error else {
        Issue.record("expected the context's error, got \(error)")
        return
      }
    }
    #expect(throws: AppRuntimeError.self) { try app.contextExecute("no-such-executable") }
    try app.contextPost("grade-basis-changed")
    await app.shutDown()
  }
}
