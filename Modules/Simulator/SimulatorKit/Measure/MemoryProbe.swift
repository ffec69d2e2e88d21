import CMallocCounterLookup

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
/// On Linux the figures come from `/proc/self/status` (`VmRSS`, `VmHWM`). On Apple platforms
/// the current value is the task's resident size (`task_info(MACH_TASK_BASIC_INFO)`) and the
/// peak comes from `getrusage` (it cannot be reset there, so a step's peak is the process's).
///
/// - Complexity: each call reads one small `/proc` file: O(1), a few microseconds; not for hot
///   paths.
/// - Note: Isolation: stateless; any thread.
/// - Note: Allocations: a few, to read the file.
public enum MemoryProbe {
  /// Bytes the program holds from the allocator now (`weft_heap_bytes_in_use`: glibc's
  /// `mallinfo2`, Darwin's `mstats`), or `nil` where the allocator does not say. What memory
  /// per view is measured with: the same objects give the same bytes on every run, where
  /// resident memory moves by whole pages and with what the allocator keeps cached. It cannot
  /// see memory outside the allocator (stacks, mapped files, the allocator's own overhead).
  ///
  /// - Complexity: O(arenas); microseconds.
  public static func heapBytesInUse() -> UInt64? {
    let bytes = weft_heap_bytes_in_use()
    return bytes >= 0 ? UInt64(bytes) : nil
  }

  /// Resident memory now, in bytes, or `nil` where the system does not say.
  public static func residentBytes() -> UInt64? {
    #if canImport(Darwin)
    return machResidentBytes()
    #else
    return statusField("VmRSS:")
    #endif
  }

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

  #if canImport(Darwin)
  /// This task's port, asked for once: `task_self_trap()` rather than the C global
  /// `mach_task_self_`, which SDKs before macOS 15.4 do not mark safe to read from Swift 6.
  private static let machTask: mach_port_t = task_self_trap()

  /// The task's resident size now (`MACH_TASK_BASIC_INFO`), or `nil` if the kernel refuses.
  private static func machResidentBytes() -> UInt64? {
    var info = mach_task_basic_info()
    var count = mach_msg_type_number_t(
      MemoryLayout<mach_task_basic_info>.size / MemoryLayout<natural_t>.size)
    let result = withUnsafeMutablePointer(to: &info) { pointer in
      pointer.withMemoryRebound(to: integer_t.self, capacity: Int(count)) { raw in
        task_info(machTask, task_flavor_t(MACH_TASK_BASIC_INFO), raw, &count)
      }
    }
    return result == KERN_SUCCESS ? UInt64(info.resident_size) : nil
  }
  #endif

  /// Parses one `kB` field of `/proc/self/status`, in bytes. Scans the bytes (no `String`
  /// splitting): the runner reads two fields per step, so this is on every step's path.
  ///
  /// - Complexity: O(b), b = bytes in the file (about 1.5 KB).
  private static func statusField(_ name: String) -> UInt64? {
    #if os(Linux)
    guard let bytes = readSmallFile("/proc/self/status") else { return nil }
    let key = Array(name.utf8)
    var start = 0
    while start < bytes.count {
      var end = start
      while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
      if end - start >= key.count, bytes[start..<(start + key.count)].elementsEqual(key) {
        var kibibytes: UInt64 = 0
        var sawDigit = false
        for byte in bytes[(start + key.count)..<end]
        where byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
          let (times10, overflow1) = kibibytes.multipliedReportingOverflow(by: 10)
          let (sum, overflow2) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
          guard !overflow1, !overflow2 else { return nil }
          kibibytes = sum
          sawDigit = true
        }
        guard sawDigit else { return nil }
        let (total, overflow) = kibibytes.multipliedReportingOverflow(by: 1_024)
        return overflow ? nil : total
      }
      start = end + 1
    }
    return nil
    #else
    return nil
    #endif
  }

  private static func readSmallFile(_ path: String) -> [UInt8]? {
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
    return bytes
  }
}
