#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the process's memory: resident now and the peak, for a report's peak memory and bytes
/// per attached view.
///
/// ```swift
/// let before = MemoryProbe.residentBytes() ?? 0
/// attach(views: 100_000)
/// let perView = Double((MemoryProbe.residentBytes() ?? 0) - before) / 100_000
/// ```
///
/// On Linux the figures come from `/proc/self/status` (`VmRSS`, `VmHWM`); elsewhere the peak
/// comes from `getrusage` and the current value is unavailable.
///
/// - Complexity: each call reads one small `/proc` file: O(1), a few microseconds; not for hot
///   paths.
/// - Note: Isolation: stateless; any thread.
/// - Note: Allocations: a few, to read the file.
public enum MemoryProbe {
  /// Resident memory now, in bytes, or `nil` where the system does not say.
  public static func residentBytes() -> UInt64? { statusField("VmRSS:") }

  /// The largest resident memory since the process started or since ``resetPeak()``, in bytes.
  public static func peakResidentBytes() -> UInt64? {
    if let peak = statusField("VmHWM:") { return peak }
    var usage = rusage()
    #if canImport(Glibc)
    let who = __rusage_who_t(RUSAGE_SELF.rawValue)
    #else
    let who = RUSAGE_SELF
    #endif
    guard getrusage(who, &usage) == 0 else { return nil }
    #if canImport(Darwin)
    return UInt64(usage.ru_maxrss)  // bytes on Darwin
    #else
    return UInt64(usage.ru_maxrss) * 1_024  // KiB elsewhere
    #endif
  }

  /// Resets the peak to the current resident memory, so the next ``peakResidentBytes()`` is the
  /// peak of one step (Linux: writes `5` to `/proc/self/clear_refs`). Returns whether it could.
  @discardableResult
  public static func resetPeak() -> Bool {
    #if os(Linux)
    let descriptor = open("/proc/self/clear_refs", O_WRONLY)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    let byte: UInt8 = 0x35  // "5"
    return withUnsafeBytes(of: byte) { write(descriptor, $0.baseAddress, 1) } == 1
    #else
    return false
    #endif
  }

  /// Parses one `kB` field of `/proc/self/status`, in bytes.
  private static func statusField(_ name: String) -> UInt64? {
    #if os(Linux)
    guard let text = readSmallFile("/proc/self/status") else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix(name) {
      let digits = line.dropFirst(name.count).filter(\.isNumber)
      guard let kibibytes = UInt64(digits) else { return nil }
      return kibibytes * 1_024
    }
    return nil
    #else
    return nil
    #endif
  }

  private static func readSmallFile(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      bytes.append(contentsOf: buffer[0..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
