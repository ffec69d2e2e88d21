// XCTest's recordFailure(withDescription:inFile:atLine:expected:) is the hook on Linux
// (swift-corelibs-xctest); Apple's XCTest routes XCTFail through record(_:) instead.
import WeftCore
import WeftFeedback
import WeftTesting

#if canImport(XCTest)
import XCTest
#endif

// apple-branches: ok a Linux-only test of the XCTest path; every module is imported above
#if canImport(XCTest) && os(Linux)

/// A TestStore failure inside an XCTest test reaches `XCTFail` at the test's own file and
/// line (not the helper's), with no adapter. The failure is captured here by overriding
/// `recordFailure`, so the test itself passes: only failures that name the TestStore's
/// mismatch are captured, anything else still fails it.
final class XCTestReportingTests: XCTestCase {
  /// The captured failures: description, file, line.
  let captured = Locked<[(String, String, Int)]>([])

  override func recordFailure(
    withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
    expected: Bool
  ) {
    guard description.contains("after send(2) does not match") else {
      super.recordFailure(
        withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
      return
    }
    captured.withLock { $0.append((description, filePath, lineNumber)) }
  }

  @MainActor
  func testATestStoreMismatchIsReportedAtTheSendsLine() async {
    let store = TestStore(initial: 0, reduce: { $0 += $1 }, feedbacks: [Feedback<Int, Int>]())
    store.send(2) { $0 = 3 }  // the reducer adds 2; the test claims 3
    let line = #line - 1
    let failures = captured.withLock { $0 }
    XCTAssertEqual(failures.count, 1)
    XCTAssertEqual(failures.first?.1, #filePath)
    XCTAssertEqual(failures.first?.2, line)
    await store.finish()
  }
}
#endif
