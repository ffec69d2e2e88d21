/// The Swift compiler that built this code, as the gate keys its thresholds: `swift-6.3` on
/// Linux, `swift-6.3-macos` (or `-ios`, …) elsewhere.
///
/// Thresholds are per compiler version because a new compiler may inline, specialize or
/// allocate differently; counts recorded with one are not a regression under another. They
/// are per platform too: Foundation and the system allocator differ, and the allocation
/// counter (`WeftAllocationCounter`) interposes glibc's malloc only, so Apple platforms do not
/// count allocations at all — thresholds recorded there (`gate --update` on a Mac) keep their
/// own key and hold no `allocationsPerCommit`.
///
/// - Note: Isolation: a value; `Sendable`.
public struct SwiftToolchain: Sendable, Equatable, Hashable {
  /// The major.minor version, such as `6.3`.
  public var version: String

  /// Makes a toolchain from its version.
  public init(version: String) { self.version = version }

  /// The key of this toolchain in the thresholds file: `swift-` and the version, then the
  /// platform when it is not Linux.
  public var thresholdsKey: String { "swift-\(version)" + Self.platformSuffix }

  /// `""` on Linux (the bundled thresholds' platform), `-macos`, `-ios`, … elsewhere.
  static var platformSuffix: String {
    #if os(Linux)
    return ""
    #elseif os(macOS)
    return "-macos"
    #elseif os(iOS)
    return "-ios"
    #else
    return "-other"
    #endif
  }

  /// The compiler that built this module.
  public static var current: SwiftToolchain {
    #if compiler(>=7.0)
    return SwiftToolchain(version: "7.x")
    #elseif compiler(>=6.6)
    return SwiftToolchain(version: "6.6")
    #elseif compiler(>=6.5)
    return SwiftToolchain(version: "6.5")
    #elseif compiler(>=6.4)
    return SwiftToolchain(version: "6.4")
    #elseif compiler(>=6.3)
    return SwiftToolchain(version: "6.3")
    #elseif compiler(>=6.2)
    return SwiftToolchain(version: "6.2")
    #elseif compiler(>=6.1)
    return SwiftToolchain(version: "6.1")
    #else
    return SwiftToolchain(version: "6.0")
    #endif
  }
}
