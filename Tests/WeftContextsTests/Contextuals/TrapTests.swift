import Foundation
import Testing
import WeftContexts

/// Every trapping call stops the process with the same text its throwing twin throws.
///
/// Each exit test runs its body in a child process; the body cannot capture values, so the
/// contexts it needs are made inside it.
@Suite("Traps")
struct TrapTests {
  /// Checks that the child process printed `message` (the twin's `description`).
  private func expectPrinted(_ result: ExitTest.Result?, _ message: String) {
    let printed = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(printed.contains(message), "stderr was: \(printed)")
  }

  @Test func requestingWhatDoesNotExist() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run { () -> Void in
        let root = Context.global.createSubcontext(named: "Traps")
        let form = root.createSubcontext(named: "Form")
        let _: Int = form.request("missing")
      }
    }
    expectPrinted(result, Messages.notFound)
  }

  @Test func requestingWhatIsAmbiguous() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run { () -> Void in
        let course = Context.global.createSubcontext(named: "COP101")
        let assignments = course.createSubcontext(named: "Assignments")
        let exams = course.createSubcontext(named: "Exams")
        assignments.addRequestable("total-weight", requesting: { 40.0 })
        exams.addRequestable("total-weight", requesting: { 60.0 })
        let _: Double = course.request("total-weight")
      }
    }
    expectPrinted(result, Messages.ambiguousTotalWeight)
  }

  @Test func requestingWhatIsOnlyBelow() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run { () -> Void in
        let root = Context.global.createSubcontext(named: "Traps")
        let form = root.createSubcontext(named: "Form")
        form.addRequestable("grade", requesting: { 1 })
        let _: Int = root.request("grade")
      }
    }
    expectPrinted(result, Messages.onlyBelow)
  }

  @Test func requestingWhileTheConditionFails() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run { () -> Void in
        let root = Context.global.createSubcontext(named: "Traps")
        let form = root.createSubcontext(named: "Form")
        root.addRequestable("grade", requesting: { 1 }, if: { false })
        let _: Int = form.request("grade")
      }
    }
    expectPrinted(result, Messages.conditionFailed)
  }

  @Test func requestingAsTheWrongType() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run { () -> Void in
        let root = Context.global.createSubcontext(named: "Traps")
        let form = root.createSubcontext(named: "Form")
        let grade: Double? = 1
        root.addRequestable("grade", requesting: { grade })
        let _: Int = form.request("grade")
      }
    }
    expectPrinted(result, Messages.typeMismatch)
  }

  @Test func settingASetFlag() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run { () -> Void in
        let root = Context.global.createSubcontext(named: "Traps")
        let form = root.createSubcontext(named: "Form")
        root.setFlag("edited")
        form.setFlag("edited")
      }
    }
    expectPrinted(result, Messages.flagAlreadySet)
  }

  @Test func unsettingAnUnsetFlag() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run { () -> Void in
        let root = Context.global.createSubcontext(named: "Traps")
        let form = root.createSubcontext(named: "Form")
        form.setFlag("edited")
        root.unsetFlag("edited")
      }
    }
    expectPrinted(result, Messages.flagNotSet)
  }

  @Test func executingAMissingExecutable() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run { () -> Void in
        Context.global.createSubcontext(named: "Traps").execute("swap")
      }
    }
    expectPrinted(result, Messages.executableNotFound)
  }

  @Test func executingWhileTheConditionFails() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run { () -> Void in
        let root = Context.global.createSubcontext(named: "Traps")
        root.addExecutable("swap", executing: {}, if: { false })
        root.execute("swap")
      }
    }
    expectPrinted(result, Messages.executableConditionFailed)
  }

  @Test func addingARequestableUnderATakenName() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run { () -> Void in
        let root = Context.global.createSubcontext(named: "Traps")
        root.addRequestable("grade", requesting: { 1 })
        root.addRequestable("grade", requesting: { 2 })
      }
    }
    expectPrinted(result, Messages.requestableTaken)
  }

  @Test func addingASecondObserverUnderANameDoesNotTrap() async {
    // Observers are many per name; the requestable and executable traps above and below
    // stay.
    await #expect(processExitsWith: .success) {
      await MainActor.run { () -> Void in
        let root = Context.global.createSubcontext(named: "Traps")
        root.addObserver(Notification.Name("changed"), calling: { _ in })
        root.addObserver(Notification.Name("changed"), calling: { _ in })
      }
    }
  }

  @Test func addingAnExecutableUnderATakenName() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run { () -> Void in
        let root = Context.global.createSubcontext(named: "Traps")
        root.addExecutable("swap", executing: {})
        root.addExecutable("swap", executing: {})
      }
    }
    expectPrinted(result, Messages.executableTaken)
  }

  @Test func linkingASecondViewToAContext() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run { () -> Void in
        let root = Context.global.createSubcontext(named: "Traps")
        let profile = root.createSubcontext(named: "Profile")
        let first = LabelView("First")
        let second = LabelView("Second")
        first.link(to: profile)
        second.link(to: profile)
      }
    }
    expectPrinted(result, Messages.contextHasAnotherView)
  }

  @Test func addingAViewInsideItself() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run { () -> Void in
        let outer = LabelView("Outer")
        let inner = LabelView("Inner")
        outer.addSubview(inner)
        inner.addSubview(outer)
      }
    }
    expectPrinted(result, Messages.viewCycle)
  }
}
