import Dispatch
import Foundation
import Observation
import Testing
import WeftContexts
import WeftCore
import WeftFeedback
import WeftNetworking
import WeftObservation
import WeftPersistence
import WeftRuntime
import WeftSimulation

/// Weft's names coexist with the toolchain's: a file importing Foundation, Dispatch,
/// Observation and every Weft module compiles with the common names unqualified. (It did not
/// while WeftFeedback had a type named `Dispatch`: `Dispatch.DispatchQueue` then named the
/// type, not the module.)
@Suite("Names that coexist")
struct NameCoexistenceTests {
  @Test func toolchainNamesResolveNextToEveryWeftModule() async {
    let queue = Dispatch.DispatchQueue(label: "weft.names")
    let plain = DispatchQueue(label: "weft.names.plain")
    #expect(queue.label == "weft.names")
    #expect(plain.label == "weft.names.plain")
    let group = DispatchGroup()
    group.enter()
    queue.async { group.leave() }
    group.wait()
    #expect(Foundation.URL(string: "https://example.com")?.host == "example.com")
    #expect(DispatchTime.now() > DispatchTime(uptimeNanoseconds: 0))
  }
}
