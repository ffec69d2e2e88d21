import CMallocCounterLookup

/// Reads the process-wide allocation count kept by the `CMallocCounter` C target, when the
/// running executable links it (the release `weft-sim` gate binary) — without SimulatorKit
/// linking it: SimulatorKit links only `CMallocCounterLookup`, whose weak references the static
/// linker binds to the counter when the same executable links `CMallocCounter` (ELF platforms;
/// elsewhere the counter is reported ``Status/absent``).
///
/// ```swift
/// if let counter = AllocationCounter.linked {
///   let perRun = counter.minimum(runs: 10) { for _ in 0..<1_000 { workload() } }
/// }
/// ```
///
/// - Complexity: `allocations` is O(1), one relaxed atomic load through a C function pointer.
/// - Note: Isolation: `Sendable`; any thread may read it. The count is process-wide, so work on
///   other threads during a measurement is counted too.
/// - Note: Allocations: none.
public struct AllocationCounter: Sendable {
  /// Whether allocation counting is available in this process, and if not, why.
  public enum Status: String, Sendable, Equatable {
    /// The counter is linked and interposes the allocator.
    case counting
    /// The counter is linked but was compiled without `WEFT_COUNT_ALLOCATIONS` or under a
    /// sanitizer (debug and sanitizer builds), so it counts nothing.
    case linkedButDisabled
    /// The executable does not link `CMallocCounter` (tests, libraries, other tools).
    case absent
  }

  private let read: @Sendable () -> UInt64

  /// Makes a counter from a reading function; tests inject a scripted one.
  public init(read: @escaping @Sendable () -> UInt64) { self.read = read }

  /// Allocations made by the whole process so far.
  public var allocations: UInt64 { read() }

  /// The counter linked into this executable, or `nil` when ``status`` is not ``Status/counting``.
  public static let linked: AllocationCounter? = lookUp().counter

  /// Why ``linked`` is or is not available.
  public static let status: Status = lookUp().status

  /// Allocations made while `body` runs (by any thread).
  ///
  /// - Complexity: O(1) around `body`.
  public func count<Result>(
    _ body: () throws -> Result
  ) rethrows -> (
    result: Result, allocations: UInt64
  ) {
    let before = allocations
    let result = try body()
    return (result, allocations &- before)
  }

  /// The smallest number of allocations over `runs` runs of `body`, as swift-nio's allocation
  /// tests do: the minimum drops one-off allocations (a lazily made buffer, a runtime cache)
  /// that a steady state does not repeat.
  ///
  /// - Parameters:
  ///   - runs: how many times to run `body` (at least 1).
  ///   - body: the work to count, typically a loop of about 1,000 iterations.
  /// - Complexity: `runs` calls of `body`.
  public func minimum(runs: Int, _ body: () -> Void) -> UInt64 {
    var best = UInt64.max
    for _ in 0..<max(1, runs) {
      best = min(best, count(body).allocations)
    }
    return best
  }

  private static func lookUp() -> (counter: AllocationCounter?, status: Status) {
    guard let function = weft_linked_allocation_counter() else { return (nil, .absent) }
    guard weft_linked_allocation_counter_is_counting() else { return (nil, .linkedButDisabled) }
    return (AllocationCounter { function() }, .counting)
  }
}
