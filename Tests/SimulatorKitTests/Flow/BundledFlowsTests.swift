import Foundation
import HealthSimulator
import Testing

@testable import SimulatorFlow
@testable import SimulatorKit

/// The flows in `Flows/` and the language reference.
@Suite struct BundledFlows {
  static let files = [
    "auth.flow", "dashboard.flow", "forms.flow", "login-to-sync.flow", "offline-burst.flow",
    "fanout-100k.flow", "fanout-latency.flow", "sweep-fanout.flow", "exactly-once.flow",
    "observation.flow", "submit-latency.flow",
  ]

  static func source(_ name: String) throws -> String {
    try String(
      contentsOf: FlowTesting.root.appendingPathComponent("Flows").appendingPathComponent(name),
      encoding: .utf8)
  }

  @Test func everyFileInFlowsIsListed() throws {
    let directory = FlowTesting.root.appendingPathComponent("Flows")
    let present = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasSuffix(".flow") }
    #expect(Set(present) == Set(Self.files))
  }

  @Test(arguments: files)
  func bundledFlowParses(_ name: String) throws {
    let path = FlowTesting.root.appendingPathComponent("Flows").appendingPathComponent(name).path
    let flow = try Flow.load(
      path: path, knownPaths: FlowTesting.appPaths, options: FlowTesting.options())
    #expect(flow.name != nil)
    #expect(flow.seed != nil)
    #expect(!flow.steps.isEmpty)
  }

  @Test func offlineBurstSubmitsAHundredTimesWhileOffline() throws {
    let flow = try FlowTesting.parse(try Self.source("offline-burst.flow"))
    let kinds = flow.steps.map(\.kind)
    let offline = try #require(kinds.firstIndex(of: FlowTesting.app("network offline")))
    let online = try #require(kinds.firstIndex(of: FlowTesting.app("network online")))
    #expect(kinds[offline..<online].filter { $0 == FlowTesting.app("form.submit") }.count == 100)
    #expect(
      kinds[online...].contains(
        FlowTesting.app("wait sync.idle", ["timeout": .duration(.seconds(60))])))
    #expect(kinds.last == .expect(.init(path: "outbox.count", op: .equal, value: .number(0))))
  }

  @Test func fanOutAttachesOneHundredThousandViewsOneOnTheChangedValue() throws {
    let flow = try FlowTesting.parse(try Self.source("fanout-100k.flow"))
    let attached = flow.steps.compactMap { step -> (Int, String)? in
      if case .attachViews(let count, let path, _, _) = step.kind { (count, path) } else { nil }
    }
    #expect(attached.map(\.0).reduce(0, +) == 100_000)
    #expect(attached.filter { $0.1 == "form.result" }.map(\.0) == [1])
  }

  @Test @MainActor func theTestCatalogIsTheHealthPlugins() {
    #expect(FlowTesting.commands.commands == HealthSimulation.plugin.catalog.commands)
    #expect(!FlowTesting.metricWords.isEmpty)
  }

  @Test @MainActor func theReferenceDocumentsEveryCommand() throws {
    let reference = try String(
      contentsOf: FlowTesting.root.appendingPathComponent("docs/simulator-language.md"),
      encoding: .utf8)
    // The engine's commands and the bundled health app's.
    let commands = HealthSimulation.plugin.catalog.commands
    #expect(Set(CommandCatalog.engine.commands.map(\.name)).isSubset(of: commands.map(\.name)))
    for command in commands {
      #expect(reference.contains("`\(command.usage)`"), "docs lack the usage of '\(command.name)'")
      for alias in command.aliases {
        #expect(reference.contains("`\(alias)`"), "docs lack the alias '\(alias)'")
      }
    }
    for kind in FlowError.Kind.allCases {
      #expect(reference.contains("`\(kind.rawValue)`"), "docs lack the error kind '\(kind)'")
    }
    for metric in FlowTesting.metricWords {
      #expect(reference.contains(metric), "docs lack the metric '\(metric)'")
    }
  }
}
