// swift-tools-version:6.1
// Notes: a small app built from Weft's modules, outside the Weft package, with its own
// simulator (`notes-sim`), flows, gate thresholds and tests. See docs/simulate-your-app.md.
import PackageDescription

/// The root package's settings: Swift 6 language mode (the tools-version default) plus the
/// upcoming features Weft relies on.
let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
  name: "Notes",
  platforms: [.macOS(.v15), .iOS(.v18)],
  dependencies: [.package(name: "Weft", path: "../..")],
  targets: [
    // The app: a notes client on WeftCore, WeftPersistence records with a migration and an
    // observed fetch, a WeftContexts editor with a validated and a debounced binding, a
    // WeftFeedback reminder countdown on `Task.sleep`. No simulation code: the simulator runs
    // it on the deterministic runtime.
    .target(
      name: "NotesApp",
      dependencies: [
        .product(name: "WeftCore", package: "Weft"),
        .product(name: "WeftPersistence", package: "Weft"),
        .product(name: "WeftContexts", package: "Weft"),
        .product(name: "WeftFeedback", package: "Weft"),
      ],
      swiftSettings: strict),
    // The simulator plug-in: the app's flow commands and how notes-sim launches it.
    .target(
      name: "NotesSimulator",
      dependencies: [
        "NotesApp",
        .product(name: "SimulatorFlow", package: "Weft"),
        .product(name: "SimulatorKit", package: "Weft"),
        .product(name: "WeftCore", package: "Weft"),
        .product(name: "WeftRuntime", package: "Weft"),
        .product(name: "WeftSimulation", package: "Weft"),
      ],
      swiftSettings: strict),
    .executableTarget(
      name: "notes-sim",
      dependencies: [
        "NotesSimulator", .product(name: "SimulatorKit", package: "Weft"),
        // Link-only: counts allocations in release builds (the gate's allocationsPerCommit).
        .product(name: "WeftAllocationCounter", package: "Weft"),
      ],
      swiftSettings: strict),
    .testTarget(
      name: "NotesAppTests",
      dependencies: [
        "NotesApp", "NotesSimulator",
        .product(name: "SimulatorKit", package: "Weft"),
        .product(name: "WeftCore", package: "Weft"),
        .product(name: "WeftPersistence", package: "Weft"),
        .product(name: "WeftSimulation", package: "Weft"),
      ],
      swiftSettings: strict),
  ]
)
