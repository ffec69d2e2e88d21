// swift-tools-version:6.1
import PackageDescription

// Proves per-module reuse: a consumer that depends on the root package by path and imports a
// single Weft module. CI builds each target into its own scratch folder and checks that no
// other Weft module was compiled (see .ci/run).
let package = Package(
  name: "WeftReuseCheck",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "Weft", path: "../..")],
  targets: [
    .executableTarget(
      name: "OnlyCore", dependencies: [.product(name: "WeftCore", package: "Weft")],
      path: "Sources/OnlyCore"),
    .executableTarget(
      name: "OnlyPersistence",
      dependencies: [.product(name: "WeftPersistence", package: "Weft")],
      path: "Sources/OnlyPersistence"),
    .executableTarget(
      name: "OnlySimulatorKit",
      dependencies: [
        .product(name: "SimulatorFlow", package: "Weft"),
        .product(name: "SimulatorKit", package: "Weft"),
      ],
      path: "Sources/OnlySimulatorKit"),
    .executableTarget(
      name: "OnlyObservation",
      dependencies: [.product(name: "WeftObservation", package: "Weft")],
      path: "Sources/OnlyObservation"),
  ]
)
