import Testing

@testable import WeftContexts

extension Executable.Name {
  fileprivate static let swap = Executable.Name("swap")
}

/// The scope of an executable: at and below the context it was added to.
@Suite("Executables")
@MainActor
struct ExecutableTests {
  @Test func executesAtAndBelow() {
    let root = makeRoot("Executables")
    let middle = root.createSubcontext(named: "Child")
    let child = middle.createSubcontext(named: "Grandchild")
    var runs = 0
    root.addExecutable(.swap, executing: { runs += 1 })
    root.execute(.swap)
    child.execute(.swap)
    #expect(runs == 2)
    #expect(child.isExecutable(.swap))
    _ = middle
  }

  @Test func notVisibleAboveOrFromASibling() {
    let root = makeRoot("Executables")
    let left = root.createSubcontext(named: "Left")
    let right = root.createSubcontext(named: "Right")
    left.addExecutable(.swap, executing: {})
    #expect(
      throws: ContextError.onlyBelow(
        .executable, name: "swap", context: "global/Executables",
        provider: "global/Executables/Left")
    ) {
      try root.tryExecute(.swap)
    }
    #expect(
      throws: ContextError.notFound(.executable, name: "swap", context: "global/Executables/Right")
    ) {
      try right.tryExecute(.swap)
    }
  }

  @Test func twoSubcontextsProvidingItMakeItAmbiguous() {
    let root = makeRoot("Executables")
    let left = root.createSubcontext(named: "Left")
    left.addExecutable(.swap, executing: {})
    let right = root.createSubcontext(named: "Right")
    right.addExecutable(.swap, executing: {})
    #expect(
      throws: ContextError.ambiguous(
        .executable, name: "swap", context: "global/Executables",
        providers: ["global/Executables/Left", "global/Executables/Right"])
    ) {
      try root.tryExecute(.swap)
    }
    _ = (left, right)
  }

  @Test func theNearestExecutableRuns() {
    let root = makeRoot("Executables")
    let child = root.createSubcontext(named: "Child")
    var ran: [String] = []
    root.addExecutable(.swap, executing: { ran.append("root") })
    child.addExecutable(.swap, executing: { ran.append("child") })
    child.execute(.swap)
    root.execute(.swap)
    #expect(ran == ["child", "root"])
  }

  @Test func missingAndConditionFailedThrowWithTheirMessages() {
    let root = makeRoot("Traps")
    let missing = #expect(throws: ContextError.self) { try root.tryExecute(.swap) }
    #expect(missing?.description == Messages.executableNotFound)
    root.addExecutable(.swap, executing: {}, if: { false })
    #expect(!root.isExecutable(.swap))
    let failed = #expect(throws: ContextError.self) { try root.tryExecute(.swap) }
    #expect(failed?.description == Messages.executableConditionFailed)
  }

  @Test func removingAnExecutableHidesIt() {
    let root = makeRoot("Executables")
    root.addExecutable(.swap, executing: {})
    #expect(root.removeExecutable(.swap))
    #expect(!root.isExecutable(.swap))
  }

  @Test func contextsAndTheirExecutablesAreFreed() {
    final class Swapper {
      var swaps = 0
    }
    let lifetimes = LifetimeTracker()
    do {
      let root = lifetimes.track(makeRoot("Executables"))
      let swapper = lifetimes.track(Swapper())
      root.addExecutable(
        .swap, executing: { [unowned swapper] in swapper.swaps += 1 }, expiresWith: swapper)
      root.execute(.swap)
      #expect(swapper.swaps == 1)
    }
    #expect(lifetimes.survivors.isEmpty)
  }
}
