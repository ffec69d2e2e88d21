import Observation
import Testing
import WeftCore
import WeftObservationTestSupport

@testable import WeftObservation

/// Per-property invalidation through WeftCore's MainActor delivery. The cells here are
/// committed to on the MainActor itself, so nothing is delivered until the test calls
/// `deliverPendingMainActorChanges()`: the counts below are exact, not timing-dependent.
@MainActor
@Suite struct ObservedStateTests {
  let cell = StateCell(Profile(), name: "ObservedStateTests")

  @Test func aCommitInvalidatesExactlyTheTrackersThatReadTheChangedProperty() {
    let model = ObservedState(cell)
    let nameReader = Tracker { model.name }
    let ageReader = Tracker { model.age }
    let both = Tracker { "\(model.name) \(model.age)" }

    cell.update { $0.name = "Grace" }
    cell.deliverPendingMainActorChanges()
    #expect(nameReader.invalidations == 1)
    #expect(ageReader.invalidations == 0)
    #expect(both.invalidations == 1)

    nameReader.renderIfDirty()
    both.renderIfDirty()
    #expect(nameReader.seen == "Grace")
    #expect(both.seen == "Grace 36")

    cell.update { $0.age = 37 }
    cell.deliverPendingMainActorChanges()
    #expect(nameReader.invalidations == 1)
    #expect(ageReader.invalidations == 1)
    #expect(both.invalidations == 2)
    ageReader.renderIfDirty()
    #expect(ageReader.seen == 37)
    #expect(model.publishedChangeCount == 2)
  }

  @Test func commitsThatChangeNothingReadInvalidateNothing() {
    let model = ObservedState(cell)
    let nameReader = Tracker { model.name }
    let ageReader = Tracker { model.age }

    cell.update { $0.name = "Ada" }  // an equal value written
    cell.update { $0.age = 36 }  // an equal value written
    cell.update { $0.email = "ada@weft.dev" }  // a property nobody reads
    cell.update { $0 = Profile(email: "ada@weft.dev") }  // the whole state, equal where read
    cell.deliverPendingMainActorChanges()

    #expect(nameReader.invalidations == 0)
    #expect(ageReader.invalidations == 0)
    #expect(model.publishedChangeCount == 0)
    #expect(cell.version == 4)
  }

  @Test func aChangeAndItsRevertInOneBurstInvalidateNothing() {
    let model = ObservedState(cell)
    let reader = Tracker { model.name }

    cell.update { $0.name = "Grace" }
    cell.update { $0.name = "Ada" }
    cell.deliverPendingMainActorChanges()

    #expect(reader.invalidations == 0)
    #expect(model.name == "Ada")
  }

  @Test func aModelJoiningDuringABurstIsNotInvalidatedByTheDeliveryItForces() {
    let early = ObservedState(cell)
    let earlyReader = Tracker { early.name }
    cell.update { $0.name = "Grace" }
    // Joins the `name` group while its delivery is pending: WeftCore forces the group's
    // next delivery so the joiner cannot miss it; the joiner already read "Grace".
    let late = ObservedState(cell)
    let lateReader = Tracker { late.name }
    #expect(lateReader.seen == "Grace")
    cell.deliverPendingMainActorChanges()

    #expect(earlyReader.invalidations == 1)
    #expect(lateReader.invalidations == 0)
    #expect(late.publishedChangeCount == 0)
  }

  @Test func aBurstInvalidatesOnceAndTheLastValueIsRead() {
    let model = ObservedState(cell)
    let reader = Tracker { model.name }

    for index in 1...100 { cell.update { $0.name = "name \(index)" } }
    cell.deliverPendingMainActorChanges()

    #expect(reader.invalidations == 1)
    #expect(model.publishedChangeCount == 1)
    reader.renderIfDirty()
    #expect(reader.seen == "name 100")
  }

  @Test func aPropertyFirstReadDuringABurstStillGetsTheBurstsLastValue() {
    let model = ObservedState(cell)
    let ageReader = Tracker { model.age }
    cell.update { $0.age = 40 }
    // `name` is read (and subscribed) while the burst is pending.
    let nameReader = Tracker { model.name }
    cell.update { $0.name = "Grace" }
    cell.update { $0.age = 41 }
    cell.deliverPendingMainActorChanges()

    #expect(ageReader.invalidations == 1)
    #expect(nameReader.invalidations == 1)
    #expect(model.age == 41)
    #expect(model.name == "Grace")
  }

  @Test func aWholeNestedKeyPathIgnoresChangesToItsSiblings() {
    let model = ObservedState(cell)
    let cityReader = Tracker { model[\.address.city] }  // tracks \Profile.address.city
    let memberReader = Tracker { model.address.city }  // tracks \Profile.address, then .city

    cell.update { $0.address.zip = "2000" }
    cell.deliverPendingMainActorChanges()
    #expect(cityReader.invalidations == 0)
    #expect(memberReader.invalidations == 1)

    cell.update { $0.address.city = "Porto" }
    cell.deliverPendingMainActorChanges()
    #expect(cityReader.invalidations == 1)
    cityReader.renderIfDirty()
    #expect(cityReader.seen == "Porto")
  }

  @Test func nestedTrackingInvalidatesTheInnerAndOuterReadersOfAProperty() {
    let model = ObservedState(cell)
    var inner: Tracker<String>?
    let outer = Tracker { () -> Int in
      inner = Tracker { model.name }  // a child view reading `name`
      return model.age  // the parent reads `age`
    }

    cell.update { $0.age = 50 }
    cell.deliverPendingMainActorChanges()
    #expect(outer.invalidations == 1)
    #expect(inner?.invalidations == 0)

    let firstInner = inner
    outer.renderIfDirty()  // renders a new child
    cell.update { $0.name = "Grace" }
    cell.deliverPendingMainActorChanges()
    // Observation merges a nested tracking's reads into the enclosing one.
    #expect(outer.invalidations == 2)
    #expect(inner?.invalidations == 1)
    #expect(firstInner?.invalidations == 1)  // its tracking still covers `name`
  }

  @Test func aNamedProjectionInvalidatesOnlyWhenItsValueChanges() {
    let model = ObservedState(cell)
    let adult = Tracker { model.value(id: "isAdult") { $0.age >= 18 } }
    #expect(adult.seen == true)

    cell.update { $0.age = 70 }
    cell.deliverPendingMainActorChanges()
    #expect(adult.invalidations == 0)

    cell.update { $0.age = 12 }
    cell.deliverPendingMainActorChanges()
    #expect(adult.invalidations == 1)
    adult.renderIfDirty()
    #expect(adult.seen == false)
  }

  @Test func eachPropertyIsOneSubscriptionHoweverManyTrackersReadIt() {
    let model = ObservedState(cell)
    let trackers = (0..<50).map { _ in Tracker { model.name } }
    #expect(cell.subscriberCount == 1)
    #expect(model.observedPropertyCount == 1)
    _ = model.age
    _ = model.value(id: "isAdult") { $0.age >= 18 }
    #expect(cell.subscriberCount == 3)
    #expect(model.observedPropertyCount == 3)

    cell.update { $0.name = "Grace" }
    cell.deliverPendingMainActorChanges()
    #expect(trackers.allSatisfy { $0.invalidations == 1 })
    #expect(model.publishedChangeCount == 1)
  }

  @Test func stopObservingCancelsEverySubscription() {
    let model = ObservedState(cell)
    let reader = Tracker { model.name }
    _ = model.age
    #expect(cell.subscriberCount == 2)

    model.stopObserving()
    #expect(cell.subscriberCount == 0)
    cell.update { $0.name = "Grace" }
    cell.deliverPendingMainActorChanges()
    #expect(reader.invalidations == 0)

    // Reading again subscribes again, from the latest commit.
    #expect(model.name == "Grace")
    #expect(cell.subscriberCount == 1)
  }

  @Test func releasingTheModelFreesItsSubscriptions() {
    weak var released: ObservedState<Profile>?
    do {
      let model = ObservedState(cell)
      released = model
      let reader = Tracker { "\(model.name) \(model[\.address.city])" }
      _ = model.value(id: "isAdult") { $0.age >= 18 }
      #expect(cell.subscriberCount == 3)
      #expect(reader.invalidations == 0)
    }
    #expect(released == nil)
    #expect(cell.subscriberCount == 0)
    #expect(cell.selectorCount == 0)
    cell.update { $0.name = "Grace" }  // nothing left to deliver to
    cell.deliverPendingMainActorChanges()
  }

  @Test func twoModelsOfOneCellShareItsSelectors() {
    let first = ObservedState(cell)
    let second = ObservedState(cell)
    let firstReader = Tracker { first.name }
    let secondReader = Tracker { second.name }
    #expect(cell.selectorCount == 1)
    #expect(cell.subscriberCount == 2)

    cell.update { $0.name = "Grace" }
    cell.deliverPendingMainActorChanges()
    #expect(firstReader.invalidations == 1)
    #expect(secondReader.invalidations == 1)
  }
}

/// What the guide says about plain Observation, pinned. Since Swift 6.2 the `@Observable`
/// macro skips a set whose value is `==` to the old one (for `Equatable` properties) or the
/// same object; any other set invalidates every reader, and a reader of a nested or computed
/// value is invalidated by every change of the stored property under it.
@MainActor
@Suite struct PlainObservationTests {
  struct Note: Sendable { var text = "" }  // not Equatable

  @Observable
  final class PlainProfile {
    var name = "Ada"
    var age = 36
    var address = Address()
    var note = Note()
    var isAdult: Bool { age >= 18 }
  }

  @Test func aPlainObservableSkipsAnEqualSetOfAnEquatableProperty() {
    let plain = PlainProfile()
    let reader = Tracker { plain.name }
    plain.name = "Ada"  // the same value
    #if compiler(>=6.2)
    #expect(reader.invalidations == 0)
    #else
    #expect(reader.invalidations == 1)
    #endif
  }

  @Test func aPlainObservableInvalidatesOnEverySetOfANonEquatableProperty() {
    let plain = PlainProfile()
    let reader = Tracker { plain.note.text }
    plain.note = Note()  // the same contents
    #expect(reader.invalidations == 1)
  }

  @Test func aPlainObservableInvalidatesNestedAndComputedReadersOnAnyChangeUnderThem() {
    let plain = PlainProfile()
    let cityReader = Tracker { plain.address.city }
    let adultReader = Tracker { plain.isAdult }
    plain.address.zip = "2000"  // city unchanged
    plain.age = 70  // still an adult
    #expect(cityReader.invalidations == 1)
    #expect(adultReader.invalidations == 1)
  }
}
