import Foundation
import Testing

@testable import SimulatorFlow
@testable import SimulatorKit

/// Every kind of diagnostic, with its exact rendering: the wording is API.
@Suite struct Diagnostics {
  struct Case: Sendable, CustomTestStringConvertible {
    var kind: FlowError.Kind
    var source: String
    var rendered: String

    init(_ kind: FlowError.Kind, _ source: String, _ rendered: String) {
      self.kind = kind
      self.source = source
      self.rendered = rendered
    }

    var testDescription: String { "\(kind): \(source.debugDescription)" }
  }

  static let cases: [Case] = statementCases + valueCases

  @Test(arguments: cases)
  func errorIsRenderedExactly(_ example: Case) throws {
    let error = try #require(FlowTesting.error(example.source))
    #expect(error.kind == example.kind)
    #expect(error.description == example.rendered)
  }

  @Test func everyKindOfErrorIsPinned() {
    let pinned = Set(Self.cases.map(\.kind))
    for kind in FlowError.Kind.allCases where kind != .unreadableFile {
      #expect(pinned.contains(kind), "no pinned message for \(kind)")
    }
  }

  @Test func anUnreadableFileIsAFlowError() throws {
    let path = FlowTesting.root.appendingPathComponent("Flows/does-not-exist.flow").path
    let error = #expect(throws: FlowError.self) { try Flow.load(path: path) }
    #expect(error?.kind == .unreadableFile)
    #expect(
      error?.description == """
        \(path):1:1: error: cannot read flow file '\(path)'
            1 |
              | ^
        hint: check that the file exists and is UTF-8 text
        """)
  }

  @Test func aControlCharacterIsRejected() throws {
    let error = try #require(FlowTesting.error("log \u{7}"))
    #expect(error.kind == .syntax)
    #expect(error.message == "unexpected control character U+0007")
    #expect(error.location.column == 5)
  }

  @Test func theCaretFollowsTabsAndLongLineNumbers() throws {
    let source = String(repeating: "\n", count: 123_456) + "\tlogn"
    let error = try #require(FlowTesting.error(source))
    #expect(
      error.description == """
        Flows/test.flow:123457:2: error: unknown command 'logn'
        123457 | \tlogn
               | \t^~~~
        hint: did you mean 'login'?
        """)
  }

  @Test func errorsAreReportedInSourceOrderAfterSyntaxErrors() throws {
    // A lexical error (an unterminated string) ends the parse and comes alone; otherwise
    // every bad top-level statement is reported, in line order.
    #expect(FlowTesting.error("logn\nlog \"x")?.kind == .unterminatedString)
    let both = FlowTesting.error("clock advance 5x\nlogn")
    #expect(both?.kind == .wrongValueKind)
    #expect(both?.followingErrors?.map(\.kind) == [.unknownCommand])
    #expect(FlowTesting.error("log $x\nclock advance 5x")?.kind == .unknownVariable)
  }

  @Test func errorsRoundTripThroughJSON() throws {
    let error = try #require(FlowTesting.error("logn"))
    let data = try JSONEncoder().encode(error)
    #expect(try JSONDecoder().decode(FlowError.self, from: data) == error)
  }
}
