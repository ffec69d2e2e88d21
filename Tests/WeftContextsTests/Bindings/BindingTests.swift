import Testing
import WeftCore

@testable import WeftContexts

/// Plain, mapped, conditional, derived and validated bindings, round-tripped through a
/// real client.
@Suite("Bindings")
@MainActor
struct BindingTests {
  let root = makeRoot("Bindings")
  let client = ProfileClient()

  func makeContext() -> ClientContext<ProfileClient> {
    ClientContext(client: client, named: "Profile", in: root)
  }

  @Test func aWriteIsOneClientUpdateAndReadsBack() async {
    let context = makeContext()
    let name = context.bind(\.name)
    #expect(name.get() == "")
    name.set("Ada")
    #expect(name.get() == "")  // not yet at the client
    await context.waitForWrites()
    #expect(client.state.name == "Ada")
    #expect(name.get() == "Ada")
    #expect(client.cell.version == 1)
    name.wrappedValue = "Grace"
    await context.waitForWrites()
    #expect(name.wrappedValue == "Grace")
    #expect(client.cell.version == 2)
  }

  @Test func aBindingSeesCommitsFromElsewhere() async {
    let context = makeContext()
    let age = context.bind(\.age)
    await client.update { $0.age = 36 }
    client.cell.deliverPendingMainActorChanges()
    #expect(age.get() == 36)
  }

  @Test func aMappedBindingConvertsBothWays() async {
    let context = makeContext()
    let fahrenheit = context.bind(\.temperature).map(
      get: { $0 * 9 / 5 + 32 }, set: { ($0 - 32) * 5 / 9 })
    #expect(fahrenheit.get() == 68)
    fahrenheit.set(212)
    await context.waitForWrites()
    #expect(client.state.temperature == 100)
    #expect(fahrenheit.get() == 212)
  }

  @Test func aKeyPathMapWritesTheWholeValueBack() async {
    struct Point: Equatable {
      var x = 0
      var y = 0
    }
    var stored = Point()
    let point = ContextBinding(get: { stored }, set: { stored = $0 })
    let y = point.map(\.y)
    y.set(5)
    #expect(stored == Point(x: 0, y: 5))
    #expect(y.get() == 5)
  }

  @Test func aConstantIgnoresWrites() {
    let constant = ContextBinding.constant(3)
    constant.set(4)
    #expect(constant.get() == 3)
  }

  // MARK: Conditional

  @Test func aConditionalBindingIsNilAndRefusesWritesWhileTheConditionFails() async {
    let context = makeContext()
    let nickname = context.bind(\.nickname, when: { $0.isLoggedIn })
    #expect(nickname.get() == nil)
    nickname.set("ada")
    await context.waitForWrites()
    #expect(client.state.nickname == "")
    #expect(client.cell.version == 0)  // nothing committed
    #expect(context.ignoredWriteCount == 1)

    await context.update { $0.isLoggedIn = true }
    #expect(nickname.get() == "")
    nickname.set("ada")
    nickname.set(nil)  // nil is never written
    await context.waitForWrites()
    #expect(nickname.get() == "ada")
    #expect(context.ignoredWriteCount == 2)
  }

  @Test func aConditionalWriteIsCheckedAgainOnTheClient() async {
    let context = makeContext()
    await context.update { $0.isLoggedIn = true }
    let nickname = context.bind(\.nickname, when: { $0.isLoggedIn })
    let before = client.cell.version
    context.send { $0.isLoggedIn = false }  // reaches the client first
    nickname.set("ada")  // the mirror still says logged in
    await context.waitForWrites()
    #expect(client.state.nickname == "")
    #expect(client.cell.version == before + 1)  // the logout only
    #expect(context.ignoredWriteCount == 1)
  }

  // MARK: Derived

  @Test func aDerivedValueIsCachedByStateVersion() async {
    let context = makeContext()
    let greeting = context.derived { "Hello, \($0.name)" }
    #expect(greeting.value == "Hello, ")
    #expect(greeting.value == "Hello, ")
    #expect(greeting.computeCount == 1)
    await context.update { $0.name = "Ada" }
    #expect(greeting.value == "Hello, Ada")
    #expect(greeting.value == "Hello, Ada")
    #expect(greeting.computeCount == 2)
    #expect(context.computed { $0.name.count } == 3)
  }

  // MARK: Validated

  @Test func anInvalidValueIsNotWrittenAndTheFailureIsObservable() async {
    let context = makeContext()
    let window = ContextWindow()
    let view = NameView(context: context)
    window.attach(view)
    let age = context.bind(\.age, validate: { (0...150).contains($0) ? nil : "must be 0...150" })
    #expect(age.set(200) == false)
    await context.waitForWrites()
    #expect(client.state.age == 0)
    #expect(client.cell.version == 0)
    #expect(
      age.failure?.description == "value 200 for \\Profile.age was not written: must be 0...150")
    #expect(age.failureCount == 1)
    #expect(context.willChangeCount == 1)
    #expect(view.renderCount == 2)  // re-rendered to show the failure

    age.binding.set(42)
    await context.waitForWrites()
    #expect(client.state.age == 42)
    #expect(age.failure == nil)
    #expect(age.binding.get() == 42)
  }

  // MARK: Lifetimes

  @Test func aBindingKeptAfterItsContextReadsTheLastStateAndDropsWrites() async {
    var name: ContextBinding<String>?
    do {
      let context = makeContext()
      await context.update { $0.name = "Ada" }
      name = context.bind(\.name)
    }
    #expect(name?.get() == "Ada")
    name?.set("Grace")
    #expect(client.state.name == "Ada")
  }

  @Test func contextsAndBindingsAreFreed() async {
    let lifetimes = LifetimeTracker()
    do {
      let context = lifetimes.track(makeContext())
      let name = context.bind(\.name)
      let age = lifetimes.track(context.bind(\.age, validate: { $0 >= 0 ? nil : "negative" }))
      let derived = lifetimes.track(context.derived { $0.name })
      name.set("Ada")
      age.set(-1)
      _ = derived.value
      await context.waitForWrites()
    }
    #expect(lifetimes.survivors.isEmpty)
  }
}
