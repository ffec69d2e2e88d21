import Testing
import WeftCore

@testable import WeftContexts

/// Validated, debounced and plain bindings compose: a composer field that refuses an empty or
/// over-long draft and writes the last valid one once typing pauses.
@Suite("Composed bindings")
@MainActor
struct ComposedBindingTests {
  let root = makeRoot("Composed")
  let client = ProfileClient()
  let clock = TestClock()

  static func validateDraft(_ text: String) -> String? {
    if text.isEmpty { return "a message needs text" }
    return text.count > 280 ? "a message is at most 280 characters" : nil
  }

  @Test func aValidatedDebouncedFieldShowsThePendingValueAndWritesTheLastValidOne() async {
    let context = ClientContext(client: client, named: "Composer", in: root)
    let composer = context.bind(
      \.query, debouncedFor: .milliseconds(300), clock: clock, validate: Self.validateDraft)

    #expect(composer.set("Hel"))
    await clock.waitForSleepers(count: 1)
    await clock.advance(by: .milliseconds(100))
    #expect(composer.set("Hello"))
    #expect(composer.binding.get() == "Hello")  // pending, shown at once
    #expect(client.state.query == "")

    // A refused value is never scheduled: "Hello" stays pending and its window runs on.
    #expect(!composer.set(""))
    #expect(composer.failure?.message == "a message needs text")
    #expect(!composer.set(String(repeating: "x", count: 281)))
    #expect(composer.failureCount == 2)
    #expect(composer.binding.get() == "Hello")

    await clock.waitForSleepers(count: 1)
    await clock.advance(by: .milliseconds(300))
    await context.waitForWrites()
    #expect(client.state.query == "Hello")
    #expect(client.cell.version == 1)  // one write for the whole burst
    #expect(composer.set("Hello!"))
    #expect(composer.failure == nil)  // a valid write clears the last failure
  }

  @Test func anyBindingCanBeValidated() async {
    let context = ClientContext(client: client, named: "Mapped", in: root)
    let upper = context.bind(\.query).map(get: { $0.uppercased() }, set: { $0.lowercased() })
    var refused = 0
    let checked = ValidatedBinding(upper, field: "query", validate: Self.validateDraft) {
      refused += 1
    }
    #expect(!checked.set(""))
    #expect(refused == 1)
    #expect(checked.set("SWIFT"))
    await context.waitForWrites()
    #expect(client.state.query == "swift")
    #expect(checked.binding.get() == "SWIFT")
  }
}
