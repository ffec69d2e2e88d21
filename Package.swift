// swift-tools-version:6.1
import PackageDescription

/// Swift settings shared by every target: Swift 6 language mode is the tools-version default;
/// these add the upcoming features Weft relies on.
let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
  name: "Weft",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [
    .library(name: "WeftCore", targets: ["WeftCore"]),
    .library(name: "WeftDependencies", targets: ["WeftDependencies"]),
    .library(name: "WeftRuntime", targets: ["WeftRuntime"]),
    .library(name: "WeftContexts", targets: ["WeftContexts"]),
    .library(name: "WeftFeedback", targets: ["WeftFeedback"]),
    .library(name: "WeftObservation", targets: ["WeftObservation"]),
    .library(name: "WeftPersistence", targets: ["WeftPersistence"]),
    .library(name: "WeftNetworking", targets: ["WeftNetworking"]),
    .library(name: "HealthDomain", targets: ["HealthDomain"]),
    .library(name: "AuthFeature", targets: ["AuthFeature"]),
    .library(name: "DashboardFeature", targets: ["DashboardFeature"]),
    .library(name: "FormsFeature", targets: ["FormsFeature"]),
    .library(name: "AppFeature", targets: ["AppFeature"]),
    .library(name: "WeftSimulation", targets: ["WeftSimulation"]),
    .library(name: "WeftTesting", targets: ["WeftTesting"]),
    .library(name: "SimulatorFlow", targets: ["SimulatorFlow"]),
    .library(name: "SimulatorReports", targets: ["SimulatorReports"]),
    .library(name: "SimulatorGate", targets: ["SimulatorGate"]),
    .library(name: "SimulatorKit", targets: ["SimulatorKit"]),
    .library(name: "SimulatorPacks", targets: ["SimulatorPacks"]),
    .library(name: "HealthHarness", targets: ["HealthHarness"]),
    .library(name: "HealthSimulator", targets: ["HealthSimulator"]),
    // Link-only: a simulator executable of your own app that depends on it counts
    // allocations in release builds, as weft-sim does (nothing imports it).
    .library(name: "WeftAllocationCounter", targets: ["CMallocCounter"]),
    .executable(name: "weft-sim", targets: ["weft-sim"]),
  ],
  targets: [
    // MARK: Core
    .target(name: "CWeftPrefetch", path: "Modules/System/CWeftPrefetch"),
    .target(
      name: "WeftCore", dependencies: ["CDeterministicWorldLookup", "CWeftPrefetch"],
      path: "Modules/Framework/WeftCore",
      swiftSettings: strict),
    .testTarget(
      name: "WeftCoreTests", dependencies: ["WeftCore"], path: "Tests/WeftCoreTests",
      swiftSettings: strict),

    // MARK: Dependencies
    // Values with a live and a test implementation (clocks, ids, the date, random numbers,
    // an app's clients), overridden per test, store, feedback system or context subtree
    // through task-local scopes; no macros, no test framework.
    .target(
      name: "WeftDependencies", dependencies: ["WeftCore"],
      path: "Modules/Framework/WeftDependencies",
      swiftSettings: strict),
    .testTarget(
      name: "WeftDependenciesTests",
      dependencies: ["WeftDependencies", "WeftCore", "WeftFeedback", "WeftTesting"],
      path: "Tests/WeftDependenciesTests", swiftSettings: strict),

    // MARK: Runtime
    // The deterministic runtime: every job of the process on one thread, in a seeded order,
    // and every sleep on virtual time (the `_Concurrency` executor SPI, in one file).
    .target(
      name: "WeftRuntime", dependencies: ["CContinuationProbeLookup", "CDeterministicWorldLookup"],
      path: "Modules/Simulator/WeftRuntime", swiftSettings: strict),
    // Answers the process's clock reads and random draws from the runtime (virtual time, a
    // seeded stream): it defines `clock_gettime`, `getrandom` and their kin, so only simulator
    // executables link it (SimulatorKit); WeftRuntime and WeftCore reach it through the
    // lookup's weak references (WeftCore reads the real clock there for latencies).
    .target(
      name: "CDeterministicWorld", path: "Modules/Simulator/CDeterministicWorld/Interpose",
      linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
    .target(
      name: "CDeterministicWorldLookup", path: "Modules/Simulator/CDeterministicWorld/Lookup"),
    // Names the tasks suspended on a continuation in the runtime's diagnostics: it interposes
    // `swift_continuation_init`, so only simulator executables link it (SimulatorKit, and the
    // runtime's own probe); WeftRuntime reaches it through the lookup's weak references.
    .target(
      name: "CContinuationProbe", path: "Modules/Simulator/CContinuationProbe/Interpose",
      linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
    .target(name: "CContinuationProbeLookup", path: "Modules/Simulator/CContinuationProbe/Lookup"),
    .testTarget(
      name: "WeftRuntimeTests", dependencies: ["WeftRuntime", "TestProcesses"],
      path: "Tests/WeftRuntimeTests", swiftSettings: strict),
    // Scenarios run in a child process under the runtime (it must be installed before any
    // asynchronous work, which a test process cannot do); WeftRuntimeTests runs them.
    .executableTarget(
      name: "weft-runtime-probe",
      dependencies: [
        "CContinuationProbe", "CDeterministicWorld", "WeftPersistence", "WeftRuntime",
      ],
      path: "Tests/RuntimeProbe",
      swiftSettings: strict),

    // A file importing Foundation, Dispatch, Observation and every Weft module compiles with
    // the toolchain's common names unqualified.
    .testTarget(
      name: "NameCoexistenceTests",
      dependencies: [
        "WeftContexts", "WeftCore", "WeftFeedback", "WeftNetworking", "WeftObservation",
        "WeftPersistence", "WeftRuntime", "WeftSimulation",
      ],
      path: "Tests/NameCoexistenceTests", swiftSettings: strict),

    // MARK: Testing
    // Test support for apps' test targets: TestStore and TestClock failures reported to Swift
    // Testing (or XCTest) at the test's own line, with no adapter. App modules never link it.
    .target(
      name: "WeftTesting",
      dependencies: ["WeftCore", "WeftDependencies", "WeftFeedback", "WeftRuntime"],
      path: "Modules/Framework/WeftTesting", swiftSettings: strict),
    .testTarget(
      name: "WeftTestingTests", dependencies: ["WeftTesting", "WeftCore", "WeftFeedback"],
      path: "Tests/WeftTestingTests", swiftSettings: strict),

    // MARK: Contexts
    .target(
      name: "WeftContexts", dependencies: ["WeftCore", "WeftDependencies"],
      path: "Modules/Framework/WeftContexts",
      swiftSettings: strict),
    .testTarget(
      name: "WeftContextsTests", dependencies: ["WeftContexts", "WeftCore", "WeftDependencies"],
      path: "Tests/WeftContextsTests",
      swiftSettings: strict),

    // MARK: Feedback
    .target(
      name: "WeftFeedback", dependencies: ["WeftCore", "WeftDependencies"],
      path: "Modules/Framework/WeftFeedback",
      swiftSettings: strict),
    .testTarget(
      name: "WeftFeedbackTests", dependencies: ["WeftFeedback", "WeftCore", "WeftTesting"],
      path: "Tests/WeftFeedbackTests",
      swiftSettings: strict),

    // MARK: Observation
    .target(
      name: "WeftObservation", dependencies: ["WeftCore", "WeftContexts"],
      path: "Modules/Framework/WeftObservation", swiftSettings: strict),
    .testTarget(
      name: "WeftObservationTests",
      dependencies: [
        "WeftObservation", "WeftContexts", "WeftCore", "WeftFeedback",
        "WeftObservationTestSupport",
      ],
      path: "Tests/WeftObservationTests", swiftSettings: strict),
    // Compiles and runs the view models docs/swiftui.md shows, and checks the guide quotes
    // them verbatim.
    .testTarget(
      name: "WeftObservationDocsTests",
      dependencies: [
        "WeftObservation", "WeftContexts", "WeftCore", "WeftFeedback",
        "WeftObservationTestSupport",
      ],
      path: "Tests/WeftObservationDocsTests", swiftSettings: strict),
    // Child processes and fixture servers awaited without blocking the cooperative pool; used
    // by every test target that starts a process. Not a product.
    // Its Python/ folder holds the python modules fixture servers share (weft_websocket, a
    // standard-library WebSocket server), put on PYTHONPATH for the processes it starts.
    .target(
      name: "TestProcesses", dependencies: ["WeftCore"], path: "Tests/TestProcesses",
      resources: [.copy("Python")], swiftSettings: strict),
    // Test helpers both observation test targets use (`Tracker`); not a product.
    .target(
      name: "WeftObservationTestSupport", dependencies: ["WeftCore"],
      path: "Tests/WeftObservationTestSupport", swiftSettings: strict),

    // MARK: Persistence
    .systemLibrary(
      name: "CSQLite", path: "Modules/System/CSQLite",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
    .target(
      name: "WeftPersistence", dependencies: ["WeftCore", "WeftRuntime", "CSQLite"],
      path: "Modules/Framework/WeftPersistence", swiftSettings: strict),
    .testTarget(
      name: "WeftPersistenceTests", dependencies: ["WeftPersistence", "WeftCore", "TestProcesses"],
      path: "Tests/WeftPersistenceTests", swiftSettings: strict),

    // MARK: Networking
    // The system OpenSSL, for wss:// in POSIXWebSocketTransport; Linux only (Apple platforms
    // have no OpenSSL and use URLSessionRealtimeTransport for wss://).
    .systemLibrary(
      name: "COpenSSL", path: "Modules/System/COpenSSL", pkgConfig: "openssl",
      providers: [.apt(["libssl-dev"])]),
    // The system zlib, for permessage-deflate (RFC 7692) in POSIXWebSocketTransport; every
    // platform has it (Apple SDKs ship it).
    .systemLibrary(
      name: "CZlib", path: "Modules/System/CZlib",
      providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
    .target(
      name: "WeftNetworking",
      dependencies: [
        "WeftCore", "CZlib", .target(name: "COpenSSL", condition: .when(platforms: [.linux])),
      ],
      path: "Modules/Framework/WeftNetworking", swiftSettings: strict),
    .testTarget(
      name: "WeftNetworkingTests", dependencies: ["WeftNetworking", "WeftCore", "TestProcesses"],
      path: "Tests/WeftNetworkingTests", resources: [.copy("Fixtures")], swiftSettings: strict),

    // MARK: Features
    // HealthDomain: the models, schema and API contract the features share (features never
    // import each other).
    .target(
      name: "HealthDomain", dependencies: ["WeftPersistence", "WeftNetworking"],
      path: "Modules/HealthApp/Features/HealthDomain", swiftSettings: strict),
    .testTarget(
      name: "HealthDomainTests",
      dependencies: ["HealthDomain", "WeftCore", "WeftNetworking", "WeftPersistence"],
      path: "Tests/HealthDomainTests",
      swiftSettings: strict),
    .target(
      name: "AuthFeature",
      dependencies: [
        "HealthDomain", "WeftCore", "WeftFeedback", "WeftPersistence", "WeftNetworking",
      ],
      path: "Modules/HealthApp/Features/AuthFeature", swiftSettings: strict),
    .target(
      name: "DashboardFeature",
      dependencies: ["HealthDomain", "WeftCore", "WeftPersistence", "WeftNetworking"],
      path: "Modules/HealthApp/Features/DashboardFeature", swiftSettings: strict),
    .testTarget(
      name: "DashboardFeatureTests",
      dependencies: [
        "DashboardFeature", "HealthDomain", "WeftCore", "WeftNetworking", "WeftPersistence",
      ],
      path: "Tests/DashboardFeatureTests", swiftSettings: strict),
    .target(
      name: "FormsFeature",
      dependencies: ["HealthDomain", "WeftCore", "WeftContexts", "WeftPersistence"],
      path: "Modules/HealthApp/Features/FormsFeature", swiftSettings: strict),
    .testTarget(
      name: "FormsFeatureTests",
      dependencies: ["FormsFeature", "HealthDomain", "WeftContexts", "WeftPersistence"],
      path: "Tests/FormsFeatureTests",
      swiftSettings: strict),
    .target(
      name: "AppFeature",
      dependencies: [
        "AuthFeature", "DashboardFeature", "FormsFeature", "HealthDomain", "WeftCore",
        "WeftContexts", "WeftDependencies", "WeftPersistence", "WeftNetworking",
      ],
      path: "Modules/HealthApp/Features/AppFeature", swiftSettings: strict),
    // The live configuration against a real HTTP and WebSocket server on 127.0.0.1.
    .testTarget(
      name: "AppFeatureTests",
      dependencies: [
        "AppFeature", "AuthFeature", "HealthHarness", "TestProcesses", "WeftCore",
        "WeftNetworking", "WeftSimulation",
      ],
      path: "Tests/AppFeatureTests",
      resources: [.copy("Fixtures")], swiftSettings: strict),
    // Suites that run on the deterministic runtime (the auth feature, the whole app in its
    // simulated configuration): a library linked into `weft-hosted-tests`, whose main is
    // WeftTesting's `DeterministicTestHost`; HostedSuitesTests runs that executable.
    .target(
      name: "HostedSuites",
      dependencies: [
        "AppFeature", "AuthFeature", "DashboardFeature", "FormsFeature", "HealthDomain",
        "HealthHarness", "TestProcesses", "WeftCore", "WeftNetworking", "WeftPersistence",
        "WeftRuntime", "WeftSimulation",
      ],
      path: "Tests/HostedSuites", swiftSettings: strict),
    .executableTarget(
      name: "weft-hosted-tests", dependencies: ["HostedSuites", "WeftTesting"],
      path: "Tests/HostedSuitesHost", swiftSettings: strict),
    .testTarget(
      name: "HostedSuitesTests", dependencies: ["TestProcesses", "WeftTesting"],
      path: "Tests/HostedSuitesTests", swiftSettings: strict),

    // MARK: Simulator
    // Deterministic settling on virtual time and observable paths: what any app built from
    // Weft's modules needs to be driven headlessly (by weft-sim or by its own tests).
    .target(
      name: "WeftSimulation", dependencies: ["WeftCore"], path: "Modules/Simulator/WeftSimulation",
      swiftSettings: strict),
    // The simulator in four targets, along its seams (issue 31 item 4); each depends only on
    // the ones before it:
    // SimulatorFlow: the flow language (lexer, parser, command catalog, checked steps).
    // Foundation only: no runner, no app, no Weft module.
    .target(name: "SimulatorFlow", path: "Modules/Simulator/SimulatorFlow", swiftSettings: strict),
    // SimulatorReports: what a run produces (per-step metrics, run and sweep reports) and its
    // renderings (table, JSON, HTML). Reads WeftCore's latency histograms; no runner.
    .target(
      name: "SimulatorReports", dependencies: ["WeftCore"],
      path: "Modules/Simulator/SimulatorReports",
      swiftSettings: strict),
    // SimulatorGate: the performance gate's thresholds, verdicts and reports, as pure values
    // over reports (measuring is SimulatorKit's). No runner.
    .target(
      name: "SimulatorGate", dependencies: ["SimulatorReports"],
      path: "Modules/Simulator/SimulatorGate",
      swiftSettings: strict),
    // SimulatorKit: the runtime and runner, the headless view groups, measurement, the
    // plug-in API and the command line (`Simulator.main`); public surface: `Simulator` and the
    // plug-in API. The CLI's types are internal.
    .target(
      name: "SimulatorKit",
      dependencies: [
        "CContinuationProbe", "CDeterministicWorld", "CMallocCounterLookup", "SimulatorFlow",
        "SimulatorGate",
        "SimulatorReports", "WeftContexts", "WeftCore", "WeftObservation", "WeftRuntime",
        "WeftSimulation",
      ],
      path: "Modules/Simulator/SimulatorKit",
      swiftSettings: strict),
    // Commands an app gets for free by using a module: network and realtime (WeftNetworking),
    // the context tree (WeftContexts).
    .target(
      name: "SimulatorPacks",
      dependencies: ["SimulatorFlow", "SimulatorKit", "WeftContexts", "WeftNetworking"],
      path: "Modules/Simulator/SimulatorPacks", swiftSettings: strict),
    // MARK: The health app's simulator side
    // HealthHarness: the health app in its simulated world (the in-process backend, network
    // and realtime server, virtual time), the verbs that drive it and its observable paths.
    // AppFeature knows none of it (.ci/check-deps' layering rule).
    .target(
      name: "HealthHarness",
      dependencies: [
        "AppFeature", "AuthFeature", "DashboardFeature", "FormsFeature", "HealthDomain",
        "WeftCore", "WeftDependencies", "WeftNetworking", "WeftPersistence", "WeftRuntime",
        "WeftSimulation",
      ],
      path: "Modules/HealthApp/Simulation/HealthHarness", swiftSettings: strict),
    // The health app's plug-in: its flow commands and how weft-sim launches it.
    .target(
      name: "HealthSimulator",
      dependencies: [
        "AppFeature", "FormsFeature", "HealthDomain", "HealthHarness", "SimulatorFlow",
        "SimulatorKit", "SimulatorPacks", "WeftCore", "WeftRuntime", "WeftSimulation",
      ],
      path: "Modules/HealthApp/Simulation/HealthSimulator", swiftSettings: strict),
    .testTarget(
      name: "HealthSimulatorTests",
      dependencies: [
        "HealthSimulator", "SimulatorFlow", "SimulatorKit", "TestProcesses", "WeftCore",
      ],
      path: "Tests/HealthSimulatorTests", swiftSettings: strict),
    .testTarget(
      name: "SimulatorKitTests",
      dependencies: [
        "HealthSimulator", "SimulatorFlow", "SimulatorGate", "SimulatorKit", "SimulatorPacks",
        "SimulatorReports", "TestProcesses", "WeftContexts", "WeftCore", "WeftNetworking",
        "WeftRuntime", "WeftSimulation",
      ],
      path: "Tests/SimulatorKitTests",
      swiftSettings: strict),
    // The simulator executable: argument handling only. It alone links the malloc counter.
    .executableTarget(
      name: "weft-sim", dependencies: ["HealthSimulator", "SimulatorKit", "CMallocCounter"],
      path: "Apps/Simulator",
      swiftSettings: strict),
    // A test app with two planted races on the deterministic runtime: `race-sim explore`
    // must find both (SimulatorKitTests' ExploreTests, and CI).
    .executableTarget(
      name: "race-sim",
      dependencies: ["SimulatorFlow", "SimulatorKit", "WeftCore", "WeftRuntime", "WeftSimulation"],
      path: "Tests/RaceSimulator", exclude: ["Flows"], swiftSettings: strict),
    // A test app whose thread reads /dev/urandom and enqueues jobs from outside the runtime:
    // `--check-determinism` must name the job where two runs part (DeterminismCheckTests).
    .executableTarget(
      name: "noise-sim",
      dependencies: ["SimulatorFlow", "SimulatorKit", "WeftCore", "WeftRuntime", "WeftSimulation"],
      path: "Tests/NoiseSimulator", exclude: ["Flows"], swiftSettings: strict),
    // Counts allocations by interposing malloc; linked only into simulator executables
    // (weft-sim, or an app's own through the WeftAllocationCounter product), and counting
    // only in release builds. No linker flags: an ELF executable exports the malloc
    // and free it defines because the shared libraries it links call them, and SimulatorKit
    // reaches the counter through CMallocCounterLookup's weak references. Nothing imports it
    // (.ci/check-deps lists it as link-only).
    .target(
      name: "CMallocCounter", path: "Modules/Simulator/CMallocCounter/Interpose",
      cSettings: [.define("WEFT_COUNT_ALLOCATIONS", .when(configuration: .release))],
      linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
    // Finds the counter when the executable links it, without linking it (weak references).
    .target(name: "CMallocCounterLookup", path: "Modules/Simulator/CMallocCounter/Lookup"),
  ]
)
