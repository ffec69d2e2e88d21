import Testing

@testable import WeftContexts

extension Flag.Name {
  fileprivate static let edited = Flag.Name("edited")
}

/// The scope of a flag: at and below the context it was set on.
@Suite("Flags")
@MainActor
struct FlagTests {
  @Test func aSetFlagIsVisibleAtAndBelow() {
    let root = makeRoot("Flags")
    let child = root.createSubcontext(named: "Child")
    #expect(!root.flagIsSet(.edited))
    root.setFlag(.edited)
    #expect(root.flagIsSet(.edited))
    #expect(child.flagIsSet(.edited))
  }

  @Test func aFlagSetBelowIsNotVisibleAbove() {
    let root = makeRoot("Flags")
    let child = root.createSubcontext(named: "Child")
    let sibling = root.createSubcontext(named: "Sibling")
    child.setFlag(.edited)
    #expect(!root.flagIsSet(.edited))
    #expect(!sibling.flagIsSet(.edited))
  }

  @Test func settingASetFlagThrowsNamingWhereItIsSet() {
    let root = makeRoot("Traps")
    let form = root.createSubcontext(named: "Form")
    root.setFlag(.edited)
    let error = #expect(throws: ContextError.self) { try form.trySetFlag(.edited) }
    #expect(
      error == .flagAlreadySet(name: "edited", context: "global/Traps/Form", setOn: "global/Traps"))
    #expect(error?.description == Messages.flagAlreadySet)
  }

  @Test func unsettingFromBelowUnsetsWhereItIsSet() throws {
    let root = makeRoot("Flags")
    let child = root.createSubcontext(named: "Child")
    root.setFlag(.edited)
    try child.tryUnsetFlag(.edited)
    #expect(!root.flagIsSet(.edited))
  }

  @Test func unsettingTheNearestLeavesTheOneAbove() {
    let root = makeRoot("Flags")
    let child = root.createSubcontext(named: "Child")
    child.setFlag(.edited)
    #expect(throws: ContextError.self) { try child.trySetFlag(.edited) }
    root.setFlag(.edited)  // allowed: root does not see child's flag
    child.unsetFlag(.edited)
    #expect(child.flagIsSet(.edited))  // root's, seen from below
    child.unsetFlag(.edited)
    #expect(!child.flagIsSet(.edited))
    #expect(!root.flagIsSet(.edited))
  }

  @Test func unsettingAnUnsetFlagThrowsNamingWhereItIsSetBelow() {
    let root = makeRoot("Traps")
    let form = root.createSubcontext(named: "Form")
    form.setFlag(.edited)
    let error = #expect(throws: ContextError.self) { try root.tryUnsetFlag(.edited) }
    #expect(
      error == .flagNotSet(name: "edited", context: "global/Traps", setBelow: ["global/Traps/Form"])
    )
    #expect(error?.description == Messages.flagNotSet)
  }

  @Test func unsettingAFlagSetNowhereSaysSo() {
    let root = makeRoot("Flags")
    let error = #expect(throws: ContextError.self) { try root.tryUnsetFlag(.edited) }
    #expect(
      error?.description
        == "flag 'edited' is not set on context 'global/Flags' or a supercontext; unsetting an "
        + "unset flag is a logic error. Check flagIsSet(_:) first, or call tryUnsetFlag(_:).")
  }

  @Test func contextsWithFlagsAreFreed() {
    let lifetimes = LifetimeTracker()
    do {
      let root = lifetimes.track(makeRoot("Flags"))
      let child = lifetimes.track(root.createSubcontext(named: "Child"))
      root.setFlag(.edited)
      #expect(child.flagIsSet(.edited))
    }
    #expect(lifetimes.survivors.isEmpty)
  }
}
