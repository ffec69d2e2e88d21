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
    .library(name: "WeftContexts", targets: ["WeftContexts"]),
    .library(name: "WeftFeedback", targets: ["WeftFeedback"]),
    .library(name: "WeftPersistence", targets: ["WeftPersistence"]),
    .library(name: "WeftNetworking", targets: ["WeftNetworking"]),
    .library(name: "SimulatorKit", targets: ["SimulatorKit"]),
  ],
  targets: [
    // MARK: Core
    .target(name: "WeftCore", path: "Modules/WeftCore", swiftSettings: strict),
    .testTarget(
      name: "WeftCoreTests", dependencies: ["WeftCore"], path: "Tests/WeftCoreTests",
      swiftSettings: strict),

    // MARK: Contexts
    .target(
      name: "WeftContexts", dependencies: ["WeftCore"], path: "Modules/WeftContexts",
      swiftSettings: strict),
    .testTarget(
      name: "WeftContextsTests", dependencies: ["WeftContexts"], path: "Tests/WeftContextsTests",
      swiftSettings: strict),

    // MARK: Feedback
    .target(
      name: "WeftFeedback", dependencies: ["WeftCore"], path: "Modules/WeftFeedback",
      swiftSettings: strict),
    .testTarget(
      name: "WeftFeedbackTests", dependencies: ["WeftFeedback"], path: "Tests/WeftFeedbackTests",
      swiftSettings: strict),

    // MARK: Persistence
    .systemLibrary(
      name: "CSQLite", path: "Modules/CSQLite",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
    .target(
      name: "WeftPersistence", dependencies: ["WeftCore", "CSQLite"],
      path: "Modules/WeftPersistence", swiftSettings: strict),
    .testTarget(
      name: "WeftPersistenceTests", dependencies: ["WeftPersistence"],
      path: "Tests/WeftPersistenceTests", swiftSettings: strict),

    // MARK: Networking
    .target(
      name: "WeftNetworking", dependencies: ["WeftCore"], path: "Modules/WeftNetworking",
      swiftSettings: strict),
    .testTarget(
      name: "WeftNetworkingTests", dependencies: ["WeftNetworking", "WeftCore"],
      path: "Tests/WeftNetworkingTests", resources: [.copy("Fixtures")], swiftSettings: strict),

    // MARK: Simulator
    .target(
      name: "SimulatorKit", dependencies: ["WeftCore"], path: "Modules/SimulatorKit",
      swiftSettings: strict),
    .testTarget(
      name: "SimulatorKitTests", dependencies: ["SimulatorKit"], path: "Tests/SimulatorKitTests",
      swiftSettings: strict),
    // Counts allocations by interposing malloc; linked only into the release gate binary.
    .target(name: "CMallocCounter", path: "Modules/CMallocCounter"),
  ]
)
