import Testing
import WeftCore
import WeftSimulation

@testable import SimulatorFlow
@testable import SimulatorKit

/// The driver reads a plug-in's `paths:` table once per launch, however the closure is
/// written: a closure that builds every path on each call (as docs/simulate-your-app.md shows)
/// must not be rebuilt on each first lookup of a path.
@MainActor
@Suite struct WeftAppDriverPathTableTests {
  struct Counts: Sendable, Equatable {
    var values = [Int](repeating: 0, count: 116)
  }

  /// A plug-in's state: a cell, a launch count, and how often the path closure ran.
  @MainActor
  final class Plugin {
    var cell = StateCell(Counts(), name: "counts", monitor: PerformanceMonitor(enabled: false))
    var launches = 1
    var tableBuilds = 0
    var keyedBuilds = 0

    /// Builds all 116 paths on every call, like `paths: { Self.paths(of: app) }`.
    func paths() -> [String: ObservablePath] {
      tableBuilds += 1
      var paths: [String: ObservablePath] = [:]
      for index in 0..<116 {
        paths["count.\(index)"] = ObservablePath("count.\(index)", cell: cell) {
          .int($0.values[index])
        }
      }
      return paths
    }

    func driver() -> WeftAppDriver {
      let driver = WeftAppDriver(
        runtime: nil, monitor: PerformanceMonitor(enabled: false),
        paths: { [unowned self] in self.paths() }, launchCount: { [unowned self] in launches })
      driver.keyedPaths[PathPattern("item[KEY].count")!] = { [unowned self] key in
        keyedBuilds += 1
        return ObservablePath("item.\(key).count", cell: cell) { .int($0.values[0]) }
      }
      return driver
    }
  }

  @Test func everyLookupOfALaunchReadsTheTableOnce() {
    let plugin = Plugin()
    let driver = plugin.driver()
    #expect(plugin.tableBuilds == 0)
    for index in 0..<116 {
      #expect(driver.observable(named: "count.\(index)")?.name == "count.\(index)")
    }
    #expect(driver.observable(named: "count.999") == nil)
    #expect(driver.observablePathNames.count == 117)
    #expect(driver.observablePathValues.isEmpty)
    #expect(driver.traceLine().hasPrefix("count.0=0 count.1=0"))
    #expect(plugin.tableBuilds == 1)
  }

  @Test func aRelaunchReadsTheTableAgainAndSeesTheNewCells() {
    let plugin = Plugin()
    let driver = plugin.driver()
    #expect(driver.observable(named: "count.3")?.read() == .int(0))
    plugin.cell = StateCell(
      Counts(values: [Int](repeating: 7, count: 116)), name: "counts",
      monitor: PerformanceMonitor(enabled: false))
    #expect(driver.observable(named: "count.3")?.read() == .int(0))
    plugin.launches = 2
    #expect(driver.observable(named: "count.3")?.read() == .int(7))
    #expect(driver.observable(named: "count.4")?.read() == .int(7))
    #expect(plugin.tableBuilds == 2)
  }

  @Test func aKeyedPathIsMadeOncePerLaunch() {
    let plugin = Plugin()
    let driver = plugin.driver()
    #expect(driver.observable(named: "item.a.count")?.name == "item.a.count")
    #expect(driver.observable(named: "item.a.count")?.name == "item.a.count")
    #expect(driver.observable(named: "item.b.count")?.name == "item.b.count")
    #expect(plugin.keyedBuilds == 2)
    plugin.launches = 2
    #expect(driver.observable(named: "item.a.count") != nil)
    #expect(plugin.keyedBuilds == 3)
    #expect(plugin.tableBuilds == 2)
  }
}
