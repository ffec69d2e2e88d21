import CHeap

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nanoseconds of CPU time consumed by the calling thread.
func threadCPUNanoseconds() -> UInt64 {
  var spec = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Nanoseconds of wall time from a monotonic clock.
func wallNanoseconds() -> UInt64 {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Bytes currently allocated from the C heap (glibc's `mallinfo2().uordblks`).
func heapBytesInUse() -> Int { Int(weft_heap_bytes_in_use()) }

/// Median, min and max of a set of samples.
struct Spread: CustomStringConvertible {
  var median: Double
  var min: Double
  var max: Double

  init(_ samples: [Double]) {
    let sorted = samples.sorted()
    median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    min = sorted.first ?? 0
    max = sorted.last ?? 0
  }

  /// Half the max–min range relative to the median, in percent.
  var spreadPercent: Double { median == 0 ? 0 : (max - min) / 2 / median * 100 }

  var description: String { format(median) + " (±" + format(spreadPercent, digits: 0) + "%)" }
}

/// Formats a number with a fixed number of decimals and thousands separators.
func format(_ value: Double, digits: Int = 1) -> String {
  guard value.isFinite else { return "–" }
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let rounded = (value * scale).rounded() / scale
  let whole = Int(rounded)
  var integer = String(abs(whole))
  var grouped = ""
  while integer.count > 3 {
    grouped = "," + integer.suffix(3) + grouped
    integer = String(integer.dropLast(3))
  }
  grouped = (rounded < 0 ? "-" : "") + integer + grouped
  guard digits > 0 else { return grouped }
  let fraction = Int(((abs(rounded) - Double(abs(whole))) * scale).rounded())
  var fractionText = String(fraction)
  while fractionText.count < digits { fractionText = "0" + fractionText }
  return grouped + "." + fractionText
}

/// Pads `text` to `width` columns, right-aligned.
func pad(_ text: String, _ width: Int) -> String {
  text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}

/// Keeps a value alive and opaque to the optimizer.
@inline(never) func blackHole<T>(_ value: T) { _ = value }
