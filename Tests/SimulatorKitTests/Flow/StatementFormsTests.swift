import Foundation
import HealthSimulator
import Testing

@testable import SimulatorFlow
@testable import SimulatorKit

/// Every valid form of every statement, one row each: the source and the step it builds.
@Suite struct StatementForms {
  typealias Kind = StepKind
  static let today = FlowTesting.date(2026, 1, 15)
  static let now = FlowTesting.now
  static let day: TimeInterval = 86_400

  /// A health-app step: `app("tab", ["name": .text("home")])`.
  static func app(
    _ command: String, _ arguments: KeyValuePairs<String, ArgumentValue> = [:]
  ) -> StepKind {
    FlowTesting.app(command, arguments)
  }

  static func login(_ email: String, _ password: String) -> StepKind {
    app("login", ["email": .text(email), "password": .text(password)])
  }

  static func form(_ fields: KeyValuePairs<String, ArgumentValue>) -> StepKind {
    app("form.set", fields)
  }

  static func feature(_ name: String, _ enabled: Bool) -> StepKind {
    app("feature", ["name": .text(name), "enabled": .boolean(enabled)])
  }

  /// `network fault KIND ...`: the kind first, then the keywords as written.
  static func fault(
    _ kind: String, _ keywords: KeyValuePairs<String, ArgumentValue> = [:]
  ) -> StepKind {
    var arguments = CommandArguments(["network fault": .word(kind)])
    for (name, value) in keywords { arguments.append(name, value) }
    return .app(AppStep("network fault", arguments))
  }

  static let forms: [(String, StepKind)] = [
    // Views
    (
      "views 10 observe auth.state", .attachViews(count: 10, path: "auth.state", name: "auth.state")
    ),
    (
      "views 100_000 observe dashboard.summary as summary",
      .attachViews(count: 100_000, path: "dashboard.summary", name: "summary")
    ),
    (
      "views 1 observe form.result as \"the one\"",
      .attachViews(count: 1, path: "form.result", name: "the one")
    ),
    (
      "views 5 observe auth.state\nviews detach auth.state",
      .detachViews(name: "auth.state", count: nil)
    ),
    ("views 5 observe auth.state as a\nviews detach a 2", .detachViews(name: "a", count: 2)),
    ("views 5 observe auth.state\nviews detach all", .detachAllViews),
    // Auth
    (
      "login email=ada@example.com password=correct-horse",
      login("ada@example.com", "correct-horse")
    ),
    (
      "login password=\"p w\" email=a@b",
      app("login", ["password": .text("p w"), "email": .text("a@b")])
    ),
    ("login email=\"\" password=\"\"", login("", "")),
    ("login.set email=ada@example.com", app("login.set", ["email": .text("ada@example.com")])),
    ("login.set password=x", app("login.set", ["password": .text("x")])),
    (
      "login.set email=a password=b",
      app("login.set", ["email": .text("a"), "password": .text("b")])
    ),
    ("login.submit", app("login.submit")),
    ("login.dismiss-error", app("login.dismiss-error")),
    ("logout", app("logout")),
    ("auth.retry", app("auth.retry")),
    ("session.expire", app("session.expire")),
    ("app.relaunch", app("app.relaunch")),
    ("verify-email", app("verify-email")),
    ("verify.email", app("verify-email")),
    // Dashboard
    ("open dashboard", app("open dashboard")),
    ("dashboard.open", app("open dashboard")),
    ("open dashboard range=day", app("open dashboard", ["range": .word("day")])),
    ("open dashboard range=week", app("open dashboard", ["range": .word("week")])),
    ("open dashboard range=month", app("open dashboard", ["range": .word("month")])),
    (
      "open dashboard range=custom from=2026-01-01 to=2026-01-10",
      app(
        "open dashboard",
        [
          "range": .word("custom"), "from": .date(FlowTesting.date(2026, 1, 1)),
          "to": .date(FlowTesting.date(2026, 1, 10)),
        ])
    ),
    (
      "open dashboard from=today-7d to=today",
      app("open dashboard", ["from": .date(today - 7 * day), "to": .date(today)])
    ),
    ("dashboard.range day", app("dashboard.range", ["range": .word("day")])),
    ("dashboard.range week", app("dashboard.range", ["range": .word("week")])),
    ("dashboard.range month", app("dashboard.range", ["range": .word("month")])),
    (
      "dashboard.range custom from=2026-01-01T08:30 to=now",
      app(
        "dashboard.range",
        [
          "range": .word("custom"), "from": .date(FlowTesting.date(2026, 1, 1, 8, 30)),
          "to": .date(now),
        ])
    ),
    ("dashboard.refresh", app("dashboard.refresh")),
    // Health form
    ("form.set metric=heartRate", form(["metric": .word("heartRate")])),
    ("form.set value=72", form(["value": .text("72")])),
    ("form.set value=36.60", form(["value": .text("36.60")])),
    ("form.set value=abc", form(["value": .text("abc")])),
    ("form.set value=\"\"", form(["value": .text("")])),
    ("form.set date=today", form(["date": .date(today)])),
    ("form.set date=today-3d", form(["date": .date(today - 3 * day)])),
    ("form.set date=today+1w", form(["date": .date(today + 7 * day)])),
    ("form.set date=now-2h", form(["date": .date(now - 7200)])),
    ("form.set date=now+30m", form(["date": .date(now + 1800)])),
    ("form.set date=now-10s", form(["date": .date(now - 10)])),
    ("form.set date=2026-11-20", form(["date": .date(FlowTesting.date(2026, 11, 20))])),
    (
      "form.set date=2026-11-20T08:30:15",
      form(["date": .date(FlowTesting.date(2026, 11, 20, 8, 30) + 15)])
    ),
    ("form.set date=2024-02-29", form(["date": .date(FlowTesting.date(2024, 2, 29))])),
    ("form.set notes=\"after a walk\"", form(["notes": .text("after a walk")])),
    (
      "form.set metric=sleepREM value=1.5 date=today notes=deep",
      form([
        "metric": .word("sleepREM"), "value": .text("1.5"), "date": .date(today),
        "notes": .text("deep"),
      ])
    ),
    ("form.submit", app("form.submit")),
    ("form.reset", app("form.reset")),
    // Grade weights: counts are whole numbers, the rest any number, in the order written
    ("grades.set assignments.total=40", app("grades.set", ["assignments.total": .number(40)])),
    (
      "grades.set exams.each=12.5 exams.count=4 assignments.each=10 assignments.count=3 "
        + "exams.total=50",
      app(
        "grades.set",
        [
          "exams.each": .number(12.5), "exams.count": .integer(4),
          "assignments.each": .number(10), "assignments.count": .integer(3),
          "exams.total": .number(50),
        ])
    ),
    ("grades.basis percent", app("grades.basis", ["grade basis": .word("percent")])),
    ("grades.basis points", app("grades.basis", ["grade basis": .word("points")])),
    // Context tree
    ("context.request total-weight", app("context.request", ["name": .text("total-weight")])),
    (
      "context.request total-weight at=global/COP101/Assignments",
      app(
        "context.request",
        ["name": .text("total-weight"), "at": .text("global/COP101/Assignments")])
    ),
    (
      "context.flag set edited",
      app("context.flag", ["flag change": .word("set"), "name": .text("edited")])
    ),
    (
      "context.flag unset edited at=global",
      app(
        "context.flag",
        ["flag change": .word("unset"), "name": .text("edited"), "at": .text("global")])
    ),
    (
      "context.execute swap at=global/C",
      app("context.execute", ["name": .text("swap"), "at": .text("global/C")])
    ),
    ("context.post changed", app("context.post", ["name": .text("changed")])),
    // App state
    ("tab dashboard", app("tab", ["name": .text("dashboard")])),
    ("navigate push settings", app("navigate push", ["name": .text("settings")])),
    ("navigate pop", app("navigate pop")),
    ("sheet present verifyEmail", app("sheet present", ["name": .text("verifyEmail")])),
    ("sheet dismiss", app("sheet dismiss")),
    ("alert dismiss", app("alert dismiss")),
    ("feature offlineMode on", feature("offlineMode", true)),
    ("feature offlineMode off", feature("offlineMode", false)),
    ("feature x true", feature("x", true)),
    ("feature x false", feature("x", false)),
    // Network and clock
    ("network offline", app("network offline")),
    ("network online", app("network online")),
    (
      "network latency 250ms",
      app("network latency", ["the latency": .duration(.milliseconds(250))])
    ),
    (
      "network latency 1.5s jitter=20ms",
      app(
        "network latency",
        ["the latency": .duration(.milliseconds(1500)), "jitter": .duration(.milliseconds(20))])
    ),
    ("network fault timeout", fault("timeout")),
    ("network fault drop rate=0.25", fault("drop", ["rate": .number(0.25)])),
    (
      "network fault 5xx status=503 retry-after=2s count=3 path=/api/metrics*",
      fault(
        "5xx",
        [
          "status": .integer(503), "retry-after": .duration(.seconds(2)), "count": .integer(3),
          "path": .text("/api/metrics*"),
        ])
    ),
    (
      "network fault 429 retry-after=1m rate=1",
      fault("429", ["retry-after": .duration(.seconds(60)), "rate": .number(1)])
    ),
    ("network fault truncated rate=0", fault("truncated", ["rate": .number(0)])),
    ("network fault garbage path=\"/api/sync\"", fault("garbage", ["path": .text("/api/sync")])),
    ("network faults clear", app("network faults clear")),
    ("network fault clear", app("network faults clear")),
    ("realtime connect", app("realtime", ["realtime action": .word("connect")])),
    ("realtime disconnect", app("realtime", ["realtime action": .word("disconnect")])),
    ("realtime drop", app("realtime", ["realtime action": .word("drop")])),
    (
      "realtime push insight title=\"Walk more\"",
      app("realtime push", ["title": .text("Walk more")])
    ),
    (
      "realtime push insight title=Hi body=\"Drink water\"",
      app("realtime push", ["title": .text("Hi"), "body": .text("Drink water")])
    ),
    ("clock advance 5s", .advanceClock(.seconds(5))),
    ("clock advance 2m", .advanceClock(.seconds(120))),
    ("clock advance 1h", .advanceClock(.seconds(3600))),
    ("clock advance 1h30m", .advanceClock(.seconds(5400))),
    ("clock advance 1d", .advanceClock(.seconds(86_400))),
    ("clock advance 10us", .advanceClock(.microseconds(10))),
    ("clock advance 7ns", .advanceClock(.nanoseconds(7))),
    ("clock advance 0s", .advanceClock(.zero)),
    ("wait sync.idle", app("wait sync.idle")),
    ("wait sync.idle timeout=30s", app("wait sync.idle", ["timeout": .duration(.seconds(30))])),
    (
      "wait auth.state == authenticated",
      .wait(.init(path: "auth.state", op: .equal, value: .word("authenticated")), timeout: nil)
    ),
    (
      "wait outbox.count <= 0 timeout=1m",
      .wait(.init(path: "outbox.count", op: .lessOrEqual, value: .number(0)), timeout: .seconds(60))
    ),
    // Expectations: every operator and every kind of value
    (
      "expect outbox.count == 0",
      .expect(.init(path: "outbox.count", op: .equal, value: .number(0)))
    ),
    (
      "expect outbox.count != 1",
      .expect(.init(path: "outbox.count", op: .notEqual, value: .number(1)))
    ),
    ("expect outbox.count < 2", .expect(.init(path: "outbox.count", op: .less, value: .number(2)))),
    (
      "expect outbox.count <= -2",
      .expect(.init(path: "outbox.count", op: .lessOrEqual, value: .number(-2)))
    ),
    (
      "expect outbox.count > 2.5",
      .expect(.init(path: "outbox.count", op: .greater, value: .number(2.5)))
    ),
    (
      "expect outbox.count >= 1_000",
      .expect(.init(path: "outbox.count", op: .greaterOrEqual, value: .number(1000)))
    ),
    (
      "expect form.error contains \"between 30\"",
      .expect(.init(path: "form.error", op: .contains, value: .string("between 30")))
    ),
    (
      "expect app.isAuthenticated == true",
      .expect(.init(path: "app.isAuthenticated", op: .equal, value: .bool(true)))
    ),
    (
      "expect app.isAuthenticated == off",
      .expect(.init(path: "app.isAuthenticated", op: .equal, value: .bool(false)))
    ),
    ("expect app.sheet == nil", .expect(.init(path: "app.sheet", op: .equal, value: .none))),
    (
      "expect clock.now >= today-1d",
      .expect(.init(path: "clock.now", op: .greaterOrEqual, value: .date(today - day)))
    ),
    (
      "expect clock.now < 2026-02-01",
      .expect(.init(path: "clock.now", op: .less, value: .date(FlowTesting.date(2026, 2, 1))))
    ),
    (
      "expect sync.completed < 5s",
      .expect(.init(path: "sync.completed", op: .less, value: .duration(.seconds(5))))
    ),
    (
      "expect auth.error == \"\"",
      .expect(.init(path: "auth.error", op: .equal, value: .string("")))
    ),
    (
      "expect network.requests == 5xx",
      .expect(.init(path: "network.requests", op: .equal, value: .word("5xx")))
    ),
    (
      "expect dashboard.summary == nil",
      .expect(.init(path: "dashboard.summary", op: .equal, value: .none))
    ),
    (
      "assert auth.state == idle",
      .expect(.init(path: "auth.state", op: .equal, value: .word("idle")))
    ),
    (
      "expect auth.state==idle",
      .expect(.init(path: "auth.state", op: .equal, value: .word("idle")))
    ),
    // Output
    ("log \"hello\"", .log("hello")),
    ("log hello", .log("hello")),
    (
      "log \"tab\\tquote\\\" backslash\\\\ dollar\\$ newline\\n\"",
      .log("tab\tquote\" backslash\\ dollar$ newline\n")
    ),
  ]

  @Test(arguments: forms)
  func statementBuildsItsStep(source: String, expected: StepKind) throws {
    let kinds = try FlowTesting.kinds(source)
    #expect(kinds.last == expected, "\(source)")
    let line = source.split(separator: "\n").last.map(String.init) ?? source
    let command = try #require(
      FlowTesting.commands.commands.first { $0.name == expected.command })
    #expect(
      ([command.name] + command.aliases).contains { line == $0 || line.hasPrefix($0 + " ") },
      "\(expected.command) does not name the command of \(line)")
  }

  @Test func everyCommandHasAValidFormInTheTable() {
    let sources = Self.forms.map(\.0)
    for command in FlowTesting.commands.commands
    where !["flow", "seed", "date", "let", "repeat", "together"].contains(command.name) {
      let covered = sources.contains { source in
        source.split(separator: "\n").contains { line in
          line == command.name || line.hasPrefix(command.name + " ")
        }
      }
      #expect(covered, "no valid form of '\(command.name)'")
    }
  }

  @Test func flowSeedLetAndRepeat() throws {
    let flow = try FlowTesting.parse(
      """
      flow "a name"
      seed 18_446_744_073_709_551_615
      let n = 2
      repeat $n { log "x" }
      """)
    #expect(flow.name == "a name")
    #expect(flow.seed == .max)
    #expect(flow.steps.map(\.kind) == [.log("x"), .log("x")])
    #expect(flow.file == FlowTesting.file)
    #expect(try FlowTesting.parse("seed 0").seed == 0)
    #expect(try FlowTesting.parse("log x").name == nil)
  }

  /// `date INSTANT`: an instant with `Z` is UTC; without, the options' time zone (UTC by
  /// default); a day alone is its midnight. No `date` line: `nil`, the runner's default.
  @Test func dateSetsTheLaunchsWallClock() throws {
    let march = Date(timeIntervalSince1970: 1_772_355_600)  // 2026-03-01T09:00:00Z
    #expect(try FlowTesting.parse("date 2026-03-01T09:00:00Z").date == march)
    #expect(try FlowTesting.parse("date 2026-03-01T09:00").date == march)
    #expect(try FlowTesting.parse("date 2026-03-01").date == march.addingTimeInterval(-9 * 3600))
    var options = Flow.ParseOptions()
    options.timeZone = try #require(TimeZone(secondsFromGMT: 3600))
    let local = try Flow.parse(source: "date 2026-03-01T10:00", knownPaths: nil, options: options)
    #expect(local.date == march)
    let zulu = try Flow.parse(source: "date 2026-03-01T09:00Z", knownPaths: nil, options: options)
    #expect(zulu.date == march)
    #expect(try FlowTesting.parse("log x").date == nil)
  }

  @Test func pathsArePrefixesOrKnownAndAnyPathWithoutAList() throws {
    #expect(try FlowTesting.kinds("views 1 observe dashboard").count == 1)
    let flow = try Flow.parse(source: "expect any.thing_1.x == 1", knownPaths: nil)
    #expect(
      flow.steps.first?.kind == .expect(.init(path: "any.thing_1.x", op: .equal, value: .number(1)))
    )
  }

  @Test func stepsCarryTheirLocationAndLine() throws {
    let flow = try FlowTesting.parse("# comment\n  logout ; login.submit\n")
    #expect(
      flow.steps.map(\.location) == [
        Flow.SourceLocation(file: FlowTesting.file, line: 2, column: 3),
        Flow.SourceLocation(file: FlowTesting.file, line: 2, column: 12),
      ])
    #expect(flow.steps.map(\.sourceLine) == ["  logout ; login.submit", "  logout ; login.submit"])
    #expect(flow.steps[0].location.description == "Flows/test.flow:2:3")
  }

  @Test func stepsRenderRunFailuresLikeParseErrors() throws {
    let flow = try FlowTesting.parse(
      "expect auth.state == authenticated\nrepeat 2 { logout ; expect outbox.count == 0 }")
    #expect(flow.steps.map(\.length) == [34, 6, 24, 6, 24])
    #expect(
      flow.steps[0].diagnostic("expected authenticated, got failed", hint: "check the password")
        == """
        Flows/test.flow:1:1: error: expected authenticated, got failed
            1 | expect auth.state == authenticated
              | ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
        hint: check the password
        """)
    #expect(
      flow.steps[4].diagnostic("expected 0, got 3")
        == """
        Flows/test.flow:2:21: error: expected 0, got 3 (iteration 2)
            2 | repeat 2 { logout ; expect outbox.count == 0 }
              |                     ^~~~~~~~~~~~~~~~~~~~~~~~
        """)
    let nested = try FlowTesting.parse("repeat 2 { repeat 3 { logout } }")
    #expect(
      nested.steps[5].diagnostic("boom")
        .hasPrefix("Flows/test.flow:1:23: error: boom (iterations 2, 3)\n"))
  }

  @Test func flowsRoundTripThroughJSON() throws {
    let flow = try FlowTesting.parse(Self.forms.map(\.0).joined(separator: "\n"))
    let data = try JSONEncoder().encode(flow)
    #expect(try JSONDecoder().decode(Flow.self, from: data) == flow)
  }

  @Test func datesFollowTheInjectedReferenceAndTimeZone() throws {
    let options = Flow.ParseOptions(
      now: FlowTesting.date(2026, 3, 10, 2),
      timeZone: TimeZone(secondsFromGMT: -5 * 3600) ?? .current, commands: FlowTesting.commands)
    let kinds = try FlowTesting.kinds(
      "form.set date=today\nform.set date=2026-03-01", options: options)
    // 02:00 UTC on March 10 is 21:00 on March 9 at UTC-5, whose midnight is 05:00 UTC.
    #expect(kinds[0] == Self.form(["date": .date(FlowTesting.date(2026, 3, 9, 5))]))
    #expect(kinds[1] == Self.form(["date": .date(FlowTesting.date(2026, 3, 1, 5))]))
  }

  @Test func valuesPrintAsAFlowWouldWriteThem() {
    let values: [(StepKind.Value, String)] = [
      (.number(72), "72"), (.number(36.6), "36.6"), (.bool(true), "true"),
      (.string("a"), "\"a\""), (.string("say \"hi\" \\ bye"), #""say \"hi\" \\ bye""#),
      (.word("idle"), "idle"), (.duration(.milliseconds(1500)), "1500ms"),
      (.duration(.seconds(120)), "2m"), (.none, "nil"),
      (.date(FlowTesting.date(2026, 11, 20)), "2026-11-20T00:00:00Z"),
    ]
    for (value, text) in values { #expect(value.description == text) }
    #expect(
      StepKind.Condition(path: "outbox.count", op: .lessOrEqual, value: .number(0)).description
        == "outbox.count <= 0")
  }
}
