import Testing

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
