import Testing

@testable import SimulatorFlow
@testable import SimulatorKit

/// `let`, `$name`, `$(...)` and `repeat` unrolling.
@Suite struct VariablesAndLoops {
  /// `--define NAME=VALUE`: a number stays a number, text is text, and a top-level `let` of
  /// the same name is only the flow's default.
  @Test func commandLineDefinesAreVariablesThatWinOverTheFlowsDefaults() throws {
    var options = FlowTesting.options()
    options.defines = ["count": "2", "who": "ada", "base": "10"]
    let source = """
      let count = 5
      repeat $count { log "$who $(base + i)" }
      """
    #expect(
      try FlowTesting.kinds(source, options: options) == [.log("ada 11"), .log("ada 12")])
    #expect(try FlowTesting.kinds("let count = 1\nrepeat $count { log \"$i\" }") == [.log("1")])
    // A nested block still shadows a define, as it shadows any variable.
    #expect(
      try FlowTesting.kinds("repeat 1 { let who = \"bo\" ; log \"$who\" }", options: options)
        == [.log("bo")])
  }

  @Test func repeatUnrollsWithTheCounterFromOne() throws {
    let flow = try FlowTesting.parse("repeat 3 { form.set metric=steps value=$i ; form.submit }")
    #expect(
      flow.steps.map(\.kind) == [
        FlowTesting.steps("1"), FlowTesting.submitForm, FlowTesting.steps("2"),
        FlowTesting.submitForm, FlowTesting.steps("3"), FlowTesting.submitForm,
      ])
    #expect(flow.steps.map(\.iterations) == [[1], [1], [2], [2], [3], [3]])
    #expect(flow.steps.allSatisfy { $0.location.line == 1 })
    #expect(flow.steps.map(\.location.column) == [12, 45, 12, 45, 12, 45])
  }

  @Test func nestedRepeatsShadowTheCounterOrNameIt() throws {
    let shadowed = try FlowTesting.kinds(
      """
      repeat 2 {
        log "outer $i"
        repeat 2 { log "inner $i" }
      }
      """)
    #expect(
      shadowed == [
        .log("outer 1"), .log("inner 1"), .log("inner 2"), .log("outer 2"), .log("inner 1"),
        .log("inner 2"),
      ])
    let named = try FlowTesting.parse(
      """
      repeat 2 as row {
        repeat 3 as column { log "$row.$column $(row * 10 + column)" }
      }
      """)
    #expect(
      named.steps.map(\.kind) == [
        .log("1.1 11"), .log("1.2 12"), .log("1.3 13"), .log("2.1 21"), .log("2.2 22"),
        .log("2.3 23"),
      ])
    #expect(named.steps.map(\.iterations).last == [2, 3])
  }

  @Test func namedCounterLeavesTheOuterIVisible() throws {
    let kinds = try FlowTesting.kinds("repeat 2 { repeat 1 as k { log $i$k } }")
    #expect(kinds == [.log("11"), .log("21")])
  }

  @Test func letBindsForTheRestOfTheBlockAndNestedBlocksMayShadow() throws {
    let kinds = try FlowTesting.kinds(
      """
      let email = ada@example.com
      let n = 2
      repeat $n {
        let email = "user$i@example.com"
        login email=$email password=pw
      }
      login email=$email password=pw
      """)
    #expect(
      kinds == [
        FlowTesting.login("user1@example.com", "pw"),
        FlowTesting.login("user2@example.com", "pw"),
        FlowTesting.login("ada@example.com", "pw"),
      ])
  }

  @Test func letOfSeveralNamesSeesTheEarlierOnes() throws {
    #expect(try FlowTesting.kinds("let a=2 b=$(a*3)\nlog $b") == [.log("6")])
  }

  @Test func variablesKeepTheirKind() throws {
    let kinds = try FlowTesting.kinds(
      """
      let d = 250ms
      let limit = 10
      let state = authenticated
      let text = "authenticated"
      network latency $d jitter=$d
      clock advance $(limit * 100)ms
      expect outbox.count <= $limit
      expect auth.state == $state
      expect auth.state == $text
      expect auth.state == "$state"
      """)
    #expect(
      kinds == [
        FlowTesting.app(
          "network latency",
          ["the latency": .duration(.milliseconds(250)), "jitter": .duration(.milliseconds(250))]),
        .advanceClock(.seconds(1)),
        .expect(.init(path: "outbox.count", op: .lessOrEqual, value: .number(10))),
        .expect(.init(path: "auth.state", op: .equal, value: .word("authenticated"))),
        .expect(.init(path: "auth.state", op: .equal, value: .string("authenticated"))),
        .expect(.init(path: "auth.state", op: .equal, value: .string("authenticated"))),
      ])
  }

  @Test func arithmeticFollowsPrecedenceAndKeepsWholeNumbersWhole() throws {
    let cases: [(String, String)] = [
      ("$(1 + 2 * 3)", "7"), ("$((1 + 2) * 3)", "9"), ("$(7 / 2)", "3.5"), ("$(8 / 2)", "4"),
      ("$(7 % 3)", "1"), ("$(-7 % 3)", "-1"), ("$(7.5 % 2)", "1.5"), ("$(-(2 - 5))", "3"),
      ("$(- - 4)", "4"), ("$(+4)", "4"), ("$(1.5 * 2)", "3"),
      ("$(0.1 + 0.2)", "0.30000000000000004"),
      ("$(10 - 2 - 3)", "5"), ("$(100 / 10 / 5)", "2"), ("$(1_000 * 3)", "3000"),
      ("$(-9223372036854775807 - 1)", "-9223372036854775808"),
    ]
    for (expression, expected) in cases {
      #expect(try FlowTesting.kinds("log \(expression)") == [.log(expected)], "\(expression)")
    }
  }

  @Test func arithmeticOverflowAndDivisionByZeroAreErrors() {
    let cases: [(String, FlowError.Kind)] = [
      ("$(9223372036854775807 * 2)", .arithmeticOverflow),
      ("$(-9223372036854775807 - 2)", .arithmeticOverflow),
      ("$(1e3)", .badNumber), ("$(1.5.2)", .badNumber), ("$(99999999999999999999)", .badNumber),
      ("$(1 / 0.0)", .divisionByZero), ("$(1.5 % 0)", .divisionByZero),
      ("$(1 / (2 - 2))", .divisionByZero), ("$()", .badExpression), ("$(1 2)", .badExpression),
      ("$(x)", .unknownVariable), ("$($)", .badExpression), ("$(1 + &)", .badExpression),
    ]
    for (expression, kind) in cases {
      #expect(FlowTesting.error("log \(expression)")?.kind == kind, "\(expression)")
    }
    #expect(
      FlowTesting.error("let big = 1e308\nlog $(big * 10)")?.kind == .wrongValueKind,
      "a variable holding a word is not a number")
    #expect(
      FlowTesting.error("repeat 10 { log $(100 / (i - 5)) }")?.message
        == "division by zero in $(...)")
  }

  @Test func decimalOverflowIsAnError() {
    let huge = "1" + String(repeating: "0", count: 300) + ".0"
    #expect(FlowTesting.error("log $(\(huge) * \(huge))")?.kind == .arithmeticOverflow)
  }

  @Test func repeatCountsMayComeFromVariablesAndExpressions() throws {
    #expect(try FlowTesting.kinds("let n = 3\nrepeat $(n - 1) { logout }").count == 2)
    #expect(try FlowTesting.kinds("repeat 2.0 { logout }").count == 2)
    #expect(FlowTesting.error("repeat 2.5 { logout }")?.kind == .badRepeatCount)
    #expect(FlowTesting.error("repeat \"2\" { logout }")?.kind == .badRepeatCount)
    #expect(FlowTesting.error("repeat $(1 - 1) { logout }")?.kind == .badRepeatCount)
  }

  @Test func theStepCapCountsUnrolledSteps() throws {
    let options = FlowTesting.options(maxSteps: 100)
    #expect(
      try FlowTesting.kinds("repeat 50 { logout ; login.submit }", options: options).count == 100)
    let error = try #require(
      FlowTesting.error("repeat 10 { repeat 10 { logout } }\nlogout", options: options))
    #expect(error.kind == .stepCapExceeded)
    #expect(error.message == "flow expands to more than 100 steps")
    #expect(error.location.line == 2)
    // A count that is only known at run time is caught when the steps pass the cap, at the
    // outermost loop.
    let dynamic = try #require(
      FlowTesting.error("let n = 11\nrepeat 10 { repeat $n { logout } }", options: options))
    #expect(dynamic.kind == .stepCapExceeded)
    #expect(dynamic.location.line == 2)
    #expect(dynamic.location.column == 1)
  }

  @Test func loopsWithoutStepsAreBoundedToo() throws {
    let options = FlowTesting.options(maxSteps: 10)
    let error = try #require(
      FlowTesting.error("repeat 9223372036854775807 { let x = 1 }", options: options))
    #expect(error.kind == .stepCapExceeded)
    #expect(
      error.message
        == "flow evaluates more than 100,000 statements while unrolling (steps, lets and loop "
        + "iterations)")
  }

  @Test func theDefaultCapIsOneMillionAndIsCheckedBeforeUnrolling() throws {
    let error = try #require(FlowTesting.error("repeat 1000 { repeat 1001 { logout } }"))
    #expect(error.kind == .stepCapExceeded)
    #expect(error.message == "flow expands to more than 1,000,000 steps")
    let huge = try #require(
      FlowTesting.error("repeat 9223372036854775807 { repeat 9223372036854775807 { logout } }"))
    #expect(huge.kind == .stepCapExceeded)
  }

  @Test func aHundredThousandStepsParseQuickly() throws {
    let flow = try FlowTesting.parse(
      "repeat 50_000 { form.set metric=steps value=$i ; form.submit }")
    #expect(flow.steps.count == 100_000)
    #expect(flow.steps.last?.kind == FlowTesting.submitForm)
    #expect(flow.steps[99_998].kind == FlowTesting.steps("50000"))
  }

  @Test func viewGroupsAreTrackedThroughLoops() throws {
    let kinds = try FlowTesting.kinds(
      """
      repeat 3 { views 10 observe auth.state as g$i }
      views detach g2 4
      views detach g2
      views detach g3
      """)
    #expect(kinds.count == 6)
    #expect(
      FlowTesting.error("views 1 observe auth.state as a\nviews detach a\nviews detach a")?.kind
        == .unknownViewGroup)
    #expect(
      FlowTesting.error("views 10000000 observe auth.state\nviews 1 observe auth.state")?.kind
        == .valueOutOfRange)
    #expect(
      try FlowTesting.kinds(
        "views 10000000 observe auth.state\nviews detach all\nviews 1 observe auth.state"
      ).count == 3)
  }

  @Test func flowAndSeedMayNotBeInsideBlocks() {
    #expect(FlowTesting.error("repeat 1 { flow \"x\" }")?.kind == .misplacedStatement)
    #expect(FlowTesting.error("let a = 1\nflow \"x\"")?.kind == .misplacedStatement)
  }
}
