import Testing

@testable import SimulatorFlow
@testable import SimulatorKit

/// Keyed paths: a plug-in declares `room[NAME].unread` once and flows use it for any key.
@Suite("Keyed paths")
struct KeyedPathTests {
  static let known: Set<String> = ["room[NAME].unread", "auth.state"]

  @Test func aPatternMatchesOneSegmentForItsKey() throws {
    let pattern = try #require(PathPattern("room[NAME].unread"))
    #expect(pattern.key(in: "room.r42.unread") == "r42")
    #expect(pattern.key(in: "room.r42.total") == nil)
    #expect(pattern.key(in: "room.r42.unread.x") == nil)
    #expect(pattern.key(in: "lobby.r42.unread") == nil)
    #expect(PathPattern("auth.state") == nil)
    #expect(PathPattern("room[NAME].seat[N]") == nil)
    #expect(PathPattern("room[na-me].unread") == nil)
  }

  @Test func flowsUseAnyKeyAndCheckValidatesTheShape() throws {
    let flow = try Flow.parse(
      source: "expect room.r42.unread == 3\nwait room.lobby.unread == 0 timeout=1s\n",
      knownPaths: Self.known)
    #expect(flow.steps.count == 2)
    #expect(throws: FlowError.self) {
      try Flow.parse(source: "expect room.r42.unred == 3\n", knownPaths: Self.known)
    }
    do {
      _ = try Flow.parse(source: "expect rooms.r42.unread == 3\n", knownPaths: Self.known)
      Issue.record("a path of no known shape parsed")
    } catch {
      #expect(error.description.contains("unknown path 'rooms.r42.unread'"))
    }
  }
}

/// `check` reports every bad step of a file, in line order, not only the first.
@Suite("Every error of a file")
struct EveryErrorTests {
  @Test func badTopLevelStepsAreAllReportedInLineOrder() {
    let source =
      "expect auth.stat == x\nlogn\nexpect auth.state == authenticated\nclock advance 5x\n"
      + "repeat 2 {\n  expect auth.state == y\n}\n"
    do {
      _ = try Flow.parse(source: source, file: "f.flow", knownPaths: ["auth.state"])
      Issue.record("a flow with three errors parsed")
    } catch {
      #expect(error.location.line == 1)
      #expect(error.followingErrors?.map(\.location.line) == [2, 4])
      let text = error.description
      #expect(text.contains("f.flow:1:8: error: unknown path 'auth.stat'"))
      #expect(text.contains("f.flow:2:1: error: unknown command 'logn'"))
      #expect(text.contains("f.flow:4:"))
    }
  }

  @Test func atMostTwentyAreReported() {
    let source = String(repeating: "logn\nexpect auth.sate == 1\n", count: 15)
    do {
      _ = try Flow.parse(source: source, file: "f.flow", knownPaths: ["auth.state"])
      Issue.record("a flow of bad steps parsed")
    } catch {
      #expect(error.followingErrors?.count == Flow.maxReportedErrors - 1)
    }
  }
}
