import Testing
import WeftContexts
import WeftCore
import WeftObservation
import WeftObservationTestSupport

/// Two-way bindings through the owner: every write is asked of the context, which asks the
/// client; reads are tracked per property.
@MainActor
@Suite struct BindingTests {
  let client = ProfileClient()

  func makeModel() -> ObservedContext<ProfileClient> {
    ObservedContext(ClientContext(client: client, named: "ProfileForm", in: nil))
  }

  @Test func aPlainBindingWritesThroughTheContextAndInvalidatesItsReaders() async {
    let model = makeModel()
    let name = model.bind(\.name)
    let reader = Tracker { name.get() }
    let ageReader = Tracker { model.age }

    name.set("Grace")
    await model.context.waitForWrites()
    #expect(client.state.name == "Grace")
    #expect(name.get() == "Grace")
    #expect(reader.invalidations == 1)
    #expect(ageReader.invalidations == 0)

    name.set("Grace")  // an equal write commits, and invalidates nothing
    await model.context.waitForWrites()
    #expect(reader.invalidations == 1)
    #expect(client.cell.version == 2)
  }

  @Test func aValidatedBindingTracksItsFailureAndWritesOnlyValidValues() async {
    let model = makeModel()
    let age = model.bind(\.age) { (0...150).contains($0) ? nil : "must be 0...150" }
    let failureReader = Tracker { age.failure?.message }
    let ageReader = Tracker { age.binding.get() }

    #expect(age.set(200) == false)
    #expect(failureReader.invalidations == 1)
    failureReader.renderIfDirty()
    #expect(failureReader.seen == "must be 0...150")

    age.set(200)  // the same failure again: nothing changes
    #expect(failureReader.invalidations == 1)
    #expect(age.failureCount == 2)

    #expect(age.set(42))
    #expect(failureReader.invalidations == 2)
    await model.context.waitForWrites()
    #expect(client.state.age == 42)
    #expect(ageReader.invalidations == 1)
    failureReader.renderIfDirty()
    #expect(failureReader.seen == nil)
    #expect(client.cell.version == 1)  // the refused values were never written
  }

  @Test func aDebouncedBindingShowsEachEditAndWritesTheLastOnce() async {
    let clock = TestClock()
    let model = makeModel()
    let query = model.bind(\.query, debouncedFor: .milliseconds(300), clock: clock)
    let reader = Tracker { query.get() }
    let nameReader = Tracker { model.name }

    for text in ["s", "sw", "swift"] {
      query.set(text)
      reader.renderIfDirty()
      #expect(reader.seen == text)
    }
    #expect(reader.invalidations == 3)
    query.set("swift")  // what is shown already
    #expect(reader.invalidations == 3)
    #expect(client.cell.version == 0)

    await clock.waitForSleepers(count: 1)
    await clock.advance(by: .milliseconds(300))
    await model.context.waitForWrites()
    #expect(client.state.query == "swift")
    #expect(client.cell.version == 1)  // one update for the whole burst of edits
    #expect(query.get() == "swift")
    // The client's value changed under the shown one: one more invalidation, same text.
    #expect(reader.invalidations == 4)
    #expect(nameReader.invalidations == 0)
  }

  @Test func releasingTheModelReleasesItsContextAndEverySubscription() async {
    weak var releasedModel: ObservedContext<ProfileClient>?
    weak var releasedContext: ClientContext<ProfileClient>?
    do {
      let model = makeModel()
      releasedModel = model
      releasedContext = model.context
      let name = model.bind(\.name)
      let age = model.bind(\.age) { $0 >= 0 ? nil : "negative" }
      let reader = Tracker { "\(name.get()) \(age.binding.get()) \(model.email)" }
      name.set("Grace")
      await model.context.waitForWrites()
      #expect(reader.invalidations == 1)
      #expect(client.cell.subscriberCount > 0)
    }
    #expect(releasedModel == nil)
    #expect(releasedContext == nil)
    #expect(client.cell.subscriberCount == 0)
  }
}
