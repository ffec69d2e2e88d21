#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The two sources of run-to-run variation that a schedule cannot fix, fixed once per
/// process before anything runs:
///
/// - **Hashing.** Swift seeds `Hasher` at random in each process, so the order in which a
///   `Set` or a `Dictionary` is iterated changes from run to run — and with it whatever an app
///   does in that order (which subscriber is told first, which job is enqueued first).
///   `SWIFT_DETERMINISTIC_HASHING` fixes the seed; the Swift runtime reads it at start.
/// - **Address layout.** Even with a fixed seed, a key hashed from an address
///   (`ObjectIdentifier`, a pointer) lands elsewhere each run under address-space layout
///   randomization. Measured on Examples/Notes' editor flow: 10 runs gave 4 different
///   allocation counts with a fixed seed, 1 with the layout fixed as well. On Linux the
///   process turns it off for itself (`personality(ADDR_NO_RANDOMIZE)`, what `setarch -R`
///   does) — acceptable for a simulator, never for an app.
///
/// Both take effect at exec, so a process that lacks them runs its executable again, once,
/// with the same arguments.
///
/// ```swift
/// // main.swift, before anything else
/// DeterministicProcess.ensure()   // returns in a process with both fixed (where possible)
/// ```
///
/// - Note: Isolation: the main thread, first thing in `main.swift` (it replaces the
///   process image).
/// - Complexity: one `execv` of the executable when something is missing (a few
///   milliseconds); O(1) otherwise.
public enum DeterministicProcess {
  /// The Swift runtime's environment variable for a fixed hashing seed.
  public static let hashingVariable = "SWIFT_DETERMINISTIC_HASHING"
  /// Set before the one re-exec, so that a process whose layout cannot be fixed (a sandbox
  /// refusing `personality`) never execs again.
  static let reexecMarker = "WEFT_DETERMINISTIC_PROCESS"

  /// Whether this process hashes with the fixed seed.
  ///
  /// - Complexity: O(1).
  public static var hashesDeterministically: Bool { getenv(hashingVariable) != nil }

  /// Whether this process's addresses are the same from run to run (Linux, layout
  /// randomization off).
  ///
  /// - Complexity: O(1).
  public static var hasFixedAddresses: Bool {
    #if os(Linux)
    guard let personality = Self.personality else { return false }
    let current = personality(0xffff_ffff)
    return current != -1 && current & Int32(addressNoRandomize) != 0
    #else
    return false
    #endif
  }

  /// `ADDR_NO_RANDOMIZE` from `<linux/personality.h>`.
  static let addressNoRandomize: UInt = 0x0040000

  #if os(Linux)
  /// glibc's `personality(2)` wrapper, looked up at run time: `<sys/personality.h>` is not
  /// part of the Glibc module.
  static let personality: (@convention(c) (UInt) -> Int32)? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "personality") else {
      return nil
    }
    return unsafeBitCast(symbol, to: (@convention(c) (UInt) -> Int32).self)
  }()
  #endif

  /// Returns in a process with a fixed hashing seed and, on Linux, a fixed address layout:
  /// at once if it has both (or already ran itself again once), otherwise after running the
  /// executable again with them. Where that is impossible (no `/proc/self/exe`, another OS)
  /// it returns and the run goes on with whatever varies.
  ///
  /// - Returns: whether both are fixed in this process.
  /// - Complexity: see the type.
  @discardableResult
  public static func ensure() -> Bool {
    #if os(Linux)
    let fixed = hashesDeterministically && hasFixedAddresses
    if fixed || getenv(reexecMarker) != nil { return fixed }
    setenv(hashingVariable, "1", 1)
    setenv(reexecMarker, "1", 1)
    if let personality = Self.personality {
      let current = personality(0xffff_ffff)
      if current != -1 { _ = personality(UInt(UInt32(bitPattern: current)) | addressNoRandomize) }
    }
    execv("/proc/self/exe", CommandLine.unsafeArgv)
    // Still here: exec failed. Run on as the process is rather than not at all.
    unsetenv(hashingVariable)
    unsetenv(reexecMarker)
    return false
    #else
    return hashesDeterministically
    #endif
  }
}
