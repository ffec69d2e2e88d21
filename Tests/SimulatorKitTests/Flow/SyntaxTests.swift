import Testing

@testable import SimulatorKit

/// Lines, `;`, blocks, comments, strings and gluing.
@Suite struct Syntax {
  @Test func semicolonsSeparateStatementsOnOneLine() throws {
    #expect(
      try FlowTesting.kinds("logout; login.submit ;; form.reset;") == [
        FlowTesting.logout, FlowTesting.submitLogin, FlowTesting.resetForm,
      ])
  }

  @Test func blocksMaySpanLinesAndTheBraceMayBeOnTheNextLine() throws {
    let kinds = try FlowTesting.kinds(
      """
      repeat 2
      {
        logout

        login.submit ; form.reset
      }
      repeat 1 {
      logout }
      repeat 1 { }
      repeat 1 {
      }
      """)
    #expect(
      kinds == [
        FlowTesting.logout, FlowTesting.submitLogin, FlowTesting.resetForm, FlowTesting.logout,
        FlowTesting.submitLogin, FlowTesting.resetForm, FlowTesting.logout,
      ])
  }

  @Test func commentsRunToTheEndOfTheLineOutsideStrings() throws {
    let kinds = try FlowTesting.kinds(
      """
      # a comment line
      logout   # a trailing comment; not a statement
         # indented comment
      log "a # inside a string" # and a comment
      log "#"
      #logout
      """)
    #expect(kinds == [FlowTesting.logout, .log("a # inside a string"), .log("#")])
  }

  @Test func emptyAndCommentOnlyFilesAreEmptyFlows() throws {
    #expect(try FlowTesting.parse("").steps.isEmpty)
    #expect(try FlowTesting.parse("\n\n  \n# nothing\n").steps.isEmpty)
  }

  @Test func lineEndingsMayBeLFCRLFOrCR() throws {
    let flow = try FlowTesting.parse("logout\r\nlogin.submit\rform.reset\n")
    #expect(flow.steps.map(\.location.line) == [1, 2, 3])
    #expect(flow.steps.map(\.sourceLine) == ["logout", "login.submit", "form.reset"])
    #expect(FlowTesting.error("logout\r\nlogn")?.location.line == 2)
  }

  @Test func stringsEscapeAndInterpolate() throws {
    let kinds = try FlowTesting.kinds(
      #"""
      let name = Ada
      log "say \"hi\" to $name"
      log "cost: \$5, sum $(2 + 3)"
      log ""
      log "$name"
      log "tabs\there"
      log "ünïcödé ✓"
      """#)
    #expect(
      kinds == [
        .log("say \"hi\" to Ada"), .log("cost: $5, sum 5"), .log(""), .log("Ada"),
        .log("tabs\there"), .log("ünïcödé ✓"),
      ])
  }

  @Test func adjacentPiecesGlueIntoOneValue() throws {
    let kinds = try FlowTesting.kinds(
      """
      repeat 2 { login email=user$i@example.com password="pw-"$i"!" }
      clock advance $(1 + 1)s
      log a"b"c
      """)
    #expect(
      kinds == [
        FlowTesting.login("user1@example.com", "pw-1!"),
        FlowTesting.login("user2@example.com", "pw-2!"),
        .advanceClock(.seconds(2)), .log("abc"),
      ])
  }

  @Test func wordsMayContainPunctuation() throws {
    let kinds = try FlowTesting.kinds(
      """
      login email=ada+test@example.com password=p!a(s)s:w/o*r,d
      network fault drop path=/api/v1/metrics?*
      """)
    #expect(kinds[0] == FlowTesting.login("ada+test@example.com", "p!a(s)s:w/o*r,d"))
    #expect(
      kinds[1]
        == FlowTesting.app(
          "network fault", ["network fault": .word("drop"), "path": .text("/api/v1/metrics?*")]))
  }

  @Test func comparisonsNeedNoSpaces() throws {
    #expect(
      try FlowTesting.kinds("expect outbox.count>=1\nexpect outbox.count!=2") == [
        .expect(.init(path: "outbox.count", op: .greaterOrEqual, value: .number(1))),
        .expect(.init(path: "outbox.count", op: .notEqual, value: .number(2))),
      ])
  }

  @Test func letAllowsSpacesAroundTheEqualsSign() throws {
    #expect(
      try FlowTesting.kinds("let a = 1\nlet b=2\nlet c =3\nlet d= 4\nlog $a$b$c$d") == [
        .log("1234")
      ])
  }

  @Test func blocksNestedTooDeeplyAreRejected() throws {
    let options = FlowTesting.options(maxNesting: 3)
    #expect(
      try FlowTesting.kinds("repeat 1 { repeat 1 { repeat 1 { logout } } }", options: options).count
        == 1)
    let error = try #require(
      FlowTesting.error(
        "repeat 1 { repeat 1 { repeat 1 { repeat 1 { logout } } } }", options: options))
    #expect(error.kind == .nestingTooDeep)
    #expect(error.message == "blocks nested deeper than 3 levels")
    #expect(error.location.column == 43)
  }

  @Test func deeplyNestedInputFailsCleanly() throws {
    let blocks =
      String(repeating: "repeat 1 { ", count: 10_000) + String(repeating: "}", count: 10_000)
    #expect(FlowTesting.error(blocks)?.kind == .nestingTooDeep)
    let parens =
      "log $(" + String(repeating: "(", count: 10_000) + "1" + String(repeating: ")", count: 10_001)
    #expect(FlowTesting.error(parens)?.kind == .nestingTooDeep)
    let minus = "log $(" + String(repeating: "-", count: 10_000) + "1)"
    #expect(FlowTesting.error(minus)?.kind == .nestingTooDeep)
    let chain = "log $(" + Array(repeating: "1", count: 10_000).joined(separator: "+") + ")"
    #expect(try FlowTesting.kinds(chain) == [.log("10000")])
  }
}
