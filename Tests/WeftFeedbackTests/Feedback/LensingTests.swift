import Testing
import WeftCore
import WeftFeedback

/// `lensing`: every reduced state with a non-nil query cancels the running effect and starts
/// a new one; a nil query cancels it.
@Suite("lensing rules", .timeLimit(.minutes(5)))
@MainActor
struct LensingTests {
  @Test func everyStateWithAQueryRestartsAndNilCancels() async {
    let harness = TickHarness { h in
      [.lensing(state: \.query) { query in await h.sleeper(query, ticks: 3)() }]
    }
    let diagram = await harness.run("a.*.b.-...")
    #expect(
      diagram == """
        tick   0123456789
        input  a.*.b.-...
        a      ^-x
        a        ^-x
        b          ^-x
        fed    ..........
        """)
    await harness.finish()
  }

  @Test func theStateAnEffectsOwnEventProducesRestartsIt() async {
    let harness = TickHarness { h in
      [.lensing(state: \.query) { query in await h.sleeper(query)() }]
    }
    let diagram = await harness.run("a...-")
    #expect(
      diagram == """
        tick   01234
        input  a...-
        a      ^-|
        a        ^-|
        a          X
        fed    ..a.a
        """)
    await harness.finish()
  }

  @Test func sequenceEffectsFeedBackEveryElementUntilRestarted() async {
    let harness = TickHarness { h in
      [.lensing(state: \.query) { query in h.ticker(query, every: 2) }]
    }
    let diagram = await harness.run("a....b..")
    // Each `.done` is a new state with a query, so it restarts the ticker, like any event.
    #expect(
      diagram == """
        tick   01234567
        input  a....b..
        a      ^-x
        a        ^-x
        a          ^x
        b           ^-x
        b             ^
        fed    ..a.a..b
        """)
    await harness.finish()
  }
}

/// `lensingSkippingRepeated`: only a query different from the previous one restarts; a nil
/// query cancels; an effect that completed is not restarted while the query stays equal.
@Suite("lensingSkippingRepeated rules", .timeLimit(.minutes(5)))
@MainActor
struct LensingSkippingRepeatedTests {
  @Test func equalQueriesDoNotRestartAndCompletionDoesNotRerun() async {
    let harness = TickHarness { h in
      [.lensingSkippingRepeated(state: \.query) { query in await h.sleeper(query)() }]
    }
    let diagram = await harness.run("a*.a.bb.-a...")
    #expect(
      diagram == """
        tick   0123456789012
        input  a*.a.bb.-a...
        a      ^-|
        b           ^-|
        a               ^-|
        fed    ..a....b...a.
        """)
    await harness.finish()
  }

  @Test func aNewQueryCancelsTheRunningEffectAndNilCancelsIt() async {
    let harness = TickHarness { h in
      [.lensingSkippingRepeated(state: \.query) { query in await h.sleeper(query, ticks: 3)() }]
    }
    let diagram = await harness.run("ab.-.a--a..")
    #expect(
      diagram == """
        tick   01234567890
        input  ab.-.a--a..
        a      ^x
        b       ^-x
        a           ^x
        a              ^--
        fed    ...........
        """)
    await harness.finish()
  }
}

/// `whenBecomesTrue`: a false→true edge starts the effect, true→false cancels it; staying
/// true does nothing, even after the effect completed.
@Suite("whenBecomesTrue rules", .timeLimit(.minutes(5)))
@MainActor
struct WhenBecomesTrueTests {
  @Test func startsOnARisingEdgeAndCancelsOnAFallingOne() async {
    let harness = TickHarness { h in
      [
        .whenBecomesTrue(state: \.flag) { _ in await h.sleeper("load", ticks: 3)() }
          .named("load")
      ]
    }
    let diagram = await harness.run("T.T.*F.T.F.")
    #expect(
      diagram == """
        tick   01234567890
        input  T.T.*F.T.F.
        load   ^--|
        load          ^-x
        fed    ...l.......
        """)
    await harness.finish()
  }

  @Test func anInitialTrueStateStartsTheEffect() async {
    let started = Counter()
    let system = FeedbackSystem<Probe, Probe.Event>(
      initial: Probe(flag: true), reduce: Probe.reduce,
      feedbacks: [
        .whenBecomesTrue(state: \.flag) { _ in
          started.increment()
          return .done("edge")
        }
      ], on: MainActor.shared)
    await system.waitUntilIdle()
    #expect(started.value == 1)
    #expect(system.state.done == ["edge"])
  }
}

/// `extracting`: one effect per event with a payload, running side by side; state changes
/// and later payloads never cancel earlier ones.
@Suite("extracting rules", .timeLimit(.minutes(5)))
@MainActor
struct ExtractingTests {
  @Test func everyPayloadStartsItsOwnEffectAndNothingCancelsThem() async {
    let harness = TickHarness { h in
      [
        .extracting(payload: { event -> String? in
          guard case .go(let payload) = event else { return nil }
          return payload
        }) { payload in await h.sleeper(payload)() }
      ]
    }
    let diagram = await harness.run("12a3-..")
    #expect(
      diagram == """
        tick   0123456
        input  12a3-..
        1      ^-|
        2       ^-|
        3         ^-|
        fed    ..12.3.
        """)
    await harness.finish()
  }
}

/// `just`: starts with the system and runs until its sequence ends or the system is torn
/// down; no state change cancels it.
@Suite("just rules", .timeLimit(.minutes(5)))
@MainActor
struct JustTests {
  @Test func runsFromTheStartWhateverTheStateDoes() async {
    let harness = TickHarness { h in
      [.just(effects: h.ticker("t", every: 2)).named("ticks")]
    }
    let diagram = await harness.run("a.-.*.T.")
    #expect(
      diagram == """
        tick   01234567
        input  a.-.*.T.
        ticks  ^-------
        fed    ..t.t.t.
        """)
    await harness.finish()
  }
}
