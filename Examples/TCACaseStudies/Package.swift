// swift-tools-version:6.1
// TCACaseStudies: four of The Composable Architecture's examples — Search, Todos, and the
// Effects-Timers and Effects-Cancellation case studies — written in Weft, outside the Weft
// package, with their TCA tests ported test for test, a simulator (`casestudies-sim`) and a
// flow per example. See docs/tca-users.md.
import PackageDescription

/// The root package's settings: Swift 6 language mode (the tools-version default) plus the
/// upcoming features Weft relies on.
let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
  name: "TCACaseStudies",
  platforms: [.macOS(.v15), .iOS(.v18)],
  dependencies: [.package(name: "Weft", path: "../..")],
  targets: [
    // The four features: state, events, a pure reducer and feedbacks each, and the API
    // clients they call. No simulation code.
    .target(
      name: "CaseStudies",
      dependencies: [
        .product(name: "WeftCore", package: "Weft"),
        .product(name: "WeftDependencies", package: "Weft"),
        .product(name: "WeftFeedback", package: "Weft"),
        .product(name: "WeftNetworking", package: "Weft"),
      ],
      swiftSettings: strict),
    // The simulator plug-in: the screens' flow commands, their paths, and the APIs served
    // in-process.
    .target(
      name: "CaseStudiesSimulator",
      dependencies: [
        "CaseStudies",
        .product(name: "SimulatorFlow", package: "Weft"),
        .product(name: "SimulatorKit", package: "Weft"),
        .product(name: "WeftCore", package: "Weft"),
        .product(name: "WeftDependencies", package: "Weft"),
        .product(name: "WeftFeedback", package: "Weft"),
        .product(name: "WeftNetworking", package: "Weft"),
        .product(name: "WeftRuntime", package: "Weft"),
        .product(name: "WeftSimulation", package: "Weft"),
      ],
      swiftSettings: strict),
    .executableTarget(
      name: "casestudies-sim",
      dependencies: ["CaseStudiesSimulator", .product(name: "SimulatorKit", package: "Weft")],
      swiftSettings: strict),
    .testTarget(
      name: "CaseStudiesTests",
      dependencies: [
        "CaseStudies",
        .product(name: "WeftCore", package: "Weft"),
        .product(name: "WeftDependencies", package: "Weft"),
        .product(name: "WeftFeedback", package: "Weft"),
        .product(name: "WeftNetworking", package: "Weft"),
        .product(name: "WeftTesting", package: "Weft"),
      ],
      exclude: ["Fixtures"],  // api_server.py: the tests find it by their own path
      swiftSettings: strict),
  ]
)
