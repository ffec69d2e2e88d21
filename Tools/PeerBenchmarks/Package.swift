// swift-tools-version:6.1
import PackageDescription

// Measures WeftCore's fan-out against OpenCombine, a third-party peer. It is the only place in
// the repository that depends on a third-party package, and it is run on demand, never by CI:
//   swift run -c release --package-path Tools/PeerBenchmarks weft-peer-bench
let package = Package(
  name: "WeftPeerBenchmarks",
  platforms: [.macOS(.v15)],
  products: [.executable(name: "weft-peer-bench", targets: ["PeerBenchmarks"])],
  dependencies: [
    .package(name: "Weft", path: "../.."),
    .package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"),
  ],
  targets: [
    .executableTarget(
      name: "PeerBenchmarks",
      dependencies: [
        .product(name: "WeftCore", package: "Weft"),
        .product(name: "OpenCombine", package: "OpenCombine"),
      ],
      path: "Sources/PeerBenchmarks"
    )
  ]
)
