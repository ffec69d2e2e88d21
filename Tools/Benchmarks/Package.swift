// swift-tools-version:6.1
import PackageDescription

// The benchmark harness lives in its own package so it never enters the library's graph.
// It depends on the root package by path; run it in release:
//   swift run -c release --package-path Tools/Benchmarks weft-bench
let package = Package(
  name: "WeftBenchmarks",
  platforms: [.macOS(.v15)],
  products: [.executable(name: "weft-bench", targets: ["Benchmarks"])],
  dependencies: [.package(name: "Weft", path: "../..")],
  targets: [
    .executableTarget(
      name: "Benchmarks",
      dependencies: [
        "CCorePinning",
        "CHeap",
        "CMemoryFloor",
        .product(name: "WeftCore", package: "Weft"),
        .product(name: "WeftFeedback", package: "Weft"),
        .product(name: "WeftObservation", package: "Weft"),
        .product(name: "WeftPersistence", package: "Weft"),
        .product(name: "WeftNetworking", package: "Weft"),
      ],
      path: "Sources/Benchmarks"
    ),
    .target(name: "CHeap", path: "Sources/CHeap"),
    // `weft-bench websocket`: the echo servers on one core, the clients on the others.
    .target(name: "CCorePinning", path: "Sources/CCorePinning"),
    // `weft-bench memory-floor`: subscriber walks in C, to see what the machine's memory allows.
    .target(name: "CMemoryFloor", path: "Sources/CMemoryFloor"),
  ]
)
