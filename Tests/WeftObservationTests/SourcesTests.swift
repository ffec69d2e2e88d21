import Testing
import WeftContexts
import WeftCore
import WeftFeedback
import WeftObservation
import WeftObservationTestSupport

/// Every kind of Weft owner as a source, through the real MainActor delivery job: after an
/// awaited write returns on the MainActor, the model has the written value (read-your-writes)
/// and the trackers that read it were invalidated exactly once.
@MainActor
@Suite struct SourcesTests {
  @Test func aClientsAwaitedUpdateIsReadAtOnce() async {
    let client = ProfileClient()
    let model = ObservedState(client)
    let nameReader = Tracker { model.name }
    let ageReader = Tracker { model.age }

    await client.update { $0.name = "Grace" }
    #expect(model.name == "Grace")
    #expect(nameReader.invalidations == 1)
    #expect(ageReader.invalidations == 0)

    await client.update { $0.name = "Grace" }  // an equal value
    #expect(nameReader.invalidations == 1)
  }

  @Test func theLastValueOfABurstOnAnotherActorIsNeverLost() async {
    let client = ProfileClient()
    let model = ObservedState(client)
    let reader = Tracker { model.name }
    for round in 1...20 {
      await client.renameRepeatedly(50, last: "last of \(round)")
      #expect(model.name == "last of \(round)")
      #expect(reader.isDirty)
      reader.renderIfDirty()
      #expect(reader.seen == "last of \(round)")
    }
    // Each burst was delivered in at most 50 jobs and at least one.
    #expect(reader.invalidations >= 20)
    #expect(reader.invalidations <= 20 * 50)
  }

  @Test func aStoreDispatchIsReadAfterItsDeliveryOrAtOnceThroughABinding() {
    let store = FeedbackStore<Login, Login.Event, Login.Event, Never>(
      initial: Login(), reduce: Login.reduce, actions: { $0 }, feedbacks: [],
      routes: { _, _ in nil })
    let model = ObservedState(store)
    let emailReader = Tracker { model.email }
    let attemptsReader = Tracker { model.attempts }

    store.dispatch(.submitted)
    #expect(model.attempts == 0)  // delivered by the MainActor job, not yet run
    store.cell.deliverPendingMainActorChanges()
    #expect(model.attempts == 1)
    #expect(attemptsReader.invalidations == 1)

    let email = model.binding(\.email) { store.dispatch(.emailChanged($0)) }
    email.set("ada@example.com")
    #expect(email.get() == "ada@example.com")  // the owner's write, delivered by `set`
    #expect(emailReader.invalidations == 1)
    email.set("ada@example.com")  // reduced again, equal: nothing to invalidate
    #expect(emailReader.invalidations == 1)
    #expect(store.state.email == "ada@example.com")
  }

  @Test func aFeedbackServicesReducedActionIsReadAtOnce() async {
    let service = FeedbackService<Login, Login.Event, Login.Event>(
      initial: Login(), reduce: Login.reduce, actions: { $0 }, feedbacks: [])
    let model = ObservedState(service)
    let reader = Tracker { model.attempts }
    let emailReader = Tracker { model.email }

    await service.dispatchAndWait(.submitted)
    #expect(model.attempts == 1)
    #expect(reader.invalidations == 1)
    #expect(emailReader.invalidations == 0)
    service.cancel()
  }

  @Test func aClientContextsClientIsReadInStepWithTheContext() async {
    let client = ProfileClient()
    let context = ClientContext(client: client, named: "Profile", in: nil)
    let model = ObservedState(context)
    let reader = Tracker { model.name }

    await context.update { $0.name = "Grace" }
    #expect(context.state.name == "Grace")
    #expect(model.name == "Grace")
    #expect(reader.invalidations == 1)
  }
}
