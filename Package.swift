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
    .library(name: "HealthDomain", targets: ["HealthDomain"]),
    .library(name: "AuthFeature", targets: ["AuthFeature"]),
    .library(name: "DashboardFeature", targets: ["DashboardFeature"]),
    .library(name: "FormsFeature", targets: ["FormsFeature"]),
    .library(name: "AppFeature", targets: ["AppFeature"]),
    .library(name: "SimulatorKit", targets: ["SimulatorKit"]),
    .executable(name: "weft-sim", targets: ["weft-sim"]),
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

    // MARK: Features
    // HealthDomain: the models, schema and API contract the features share (features never
    // import each other).
    .target(
      name: "HealthDomain", dependencies: ["WeftCore", "WeftPersistence", "WeftNetworking"],
      path: "Modules/Features/HealthDomain", swiftSettings: strict),
    .testTarget(
      name: "HealthDomainTests", dependencies: ["HealthDomain"], path: "Tests/HealthDomainTests",
      swiftSettings: strict),
    .target(
      name: "AuthFeature",
      dependencies: [
        "HealthDomain", "WeftCore", "WeftFeedback", "WeftPersistence", "WeftNetworking",
      ],
      path: "Modules/Features/AuthFeature", swiftSettings: strict),
    .testTarget(
      name: "AuthFeatureTests", dependencies: ["AuthFeature"], path: "Tests/AuthFeatureTests",
      swiftSettings: strict),
    .target(
      name: "DashboardFeature",
      dependencies: [
        "HealthDomain", "WeftCore", "WeftContexts", "WeftFeedback", "WeftPersistence",
        "WeftNetworking",
      ],
      path: "Modules/Features/DashboardFeature", swiftSettings: strict),
    .testTarget(
      name: "DashboardFeatureTests", dependencies: ["DashboardFeature"],
      path: "Tests/DashboardFeatureTests", swiftSettings: strict),
    .target(
      name: "FormsFeature",
      dependencies: ["HealthDomain", "WeftCore", "WeftContexts", "WeftPersistence"],
      path: "Modules/Features/FormsFeature", swiftSettings: strict),
    .testTarget(
      name: "FormsFeatureTests", dependencies: ["FormsFeature"], path: "Tests/FormsFeatureTests",
      swiftSettings: strict),
    .target(
      name: "AppFeature",
      dependencies: [
        "AuthFeature", "DashboardFeature", "FormsFeature", "HealthDomain", "WeftCore",
        "WeftContexts", "WeftFeedback", "WeftPersistence", "WeftNetworking",
      ],
      path: "Modules/Features/AppFeature", swiftSettings: strict),
    .testTarget(
      name: "AppFeatureTests", dependencies: ["AppFeature"], path: "Tests/AppFeatureTests",
      resources: [.copy("Fixtures")], swiftSettings: strict),

    // MARK: Simulator
    .target(
      name: "SimulatorKit",
      dependencies: ["AppFeature", "FormsFeature", "HealthDomain", "WeftCore"],
      path: "Modules/SimulatorKit",
      swiftSettings: strict),
    .testTarget(
      name: "SimulatorKitTests", dependencies: ["SimulatorKit"], path: "Tests/SimulatorKitTests",
      swiftSettings: strict),
    // The simulator executable: argument handling only. It alone links the malloc counter.
    .executableTarget(
      name: "weft-sim", dependencies: ["SimulatorKit", "CMallocCounter"], path: "Apps/Simulator",
      swiftSettings: strict),
    // Counts allocations by interposing malloc; linked only into the release gate binary.
    .target(
      name: "CMallocCounter", path: "Modules/CMallocCounter",
      cSettings: [.define("WEFT_COUNT_ALLOCATIONS", .when(configuration: .release))],
      linkerSettings: [
        // Export the interposed allocator and the query functions from the executable, so every
        // shared library's calls reach them and SimulatorKit finds them with dlsym.
        .unsafeFlags(
          [
            "malloc", "calloc", "realloc", "free", "memalign", "aligned_alloc", "posix_memalign",
            "weft_malloc_count", "weft_free_count", "weft_malloc_counting_enabled",
          ].flatMap { ["-Xlinker", "--export-dynamic-symbol=\($0)"] }, .when(platforms: [.linux]))
      ]),
  ]
)
