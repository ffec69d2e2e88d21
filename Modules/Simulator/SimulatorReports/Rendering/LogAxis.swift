#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
private func cLog10(_ value: Double) -> Double { log10(value) }
#endif

/// A base-10 logarithmic axis spanning whole decades, mapping values to pixel positions.
struct LogAxis {
  /// Exponent of the first decade (10^low at the axis start).
  let low: Int
  /// Exponent of the last decade (10^high at the axis end); always greater than `low`.
  let high: Int
  /// Pixel position of the axis start and end.
  let start: Double
  let end: Double

  /// The smallest span of whole decades holding every positive value, or `nil` if there is
  /// none.
  init?(values: [Double], start: Double, end: Double) {
    let positive = values.filter { $0 > 0 && $0.isFinite }
    guard let smallest = positive.min(), let largest = positive.max() else { return nil }
    var low = Self.exponent(floorOf: smallest)
    var high = Self.exponent(ceilingOf: largest)
    if high <= low { high = low + 1 }
    // Keep the axis readable when values cover more than 12 decades.
    if high - low > 12 { low = high - 12 }
    self.low = low
    self.high = high
    self.start = start
    self.end = end
  }

  /// The decade values 10^low … 10^high.
  var ticks: [Double] { (low...high).map { Self.power($0) } }

  /// Pixel position of `value`, clamped to the axis.
  func position(_ value: Double) -> Double {
    let logarithm = value > 0 ? Self.log10(value) : Double(low)
    let fraction =
      (min(max(logarithm, Double(low)), Double(high)) - Double(low))
      / Double(high - low)
    return start + fraction * (end - start)
  }

  static func power(_ exponent: Int) -> Double {
    var value = 1.0
    if exponent >= 0 {
      for _ in 0..<exponent { value *= 10 }
    } else {
      for _ in 0..<(-exponent) { value /= 10 }
    }
    return value
  }

  /// Largest k with 10^k ≤ value.
  static func exponent(floorOf value: Double) -> Int {
    var exponent = 0
    while power(exponent) > value { exponent -= 1 }
    while power(exponent + 1) <= value { exponent += 1 }
    return exponent
  }

  /// Smallest k with 10^k ≥ value.
  static func exponent(ceilingOf value: Double) -> Int {
    let floor = exponent(floorOf: value)
    return power(floor) >= value ? floor : floor + 1
  }

  static func log10(_ value: Double) -> Double {
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    return cLog10(value)
    #else
    let decade = exponent(floorOf: value)
    return Double(decade) + (value / power(decade) - 1) / 9  // linear within a decade
    #endif
  }
}

/// A number for an SVG attribute: one decimal, no exponent.
func svgNumber(_ value: Double) -> String { ReportUnits.fixed(value, decimals: 1) }

/// `1`, `10`, `100`, `1k`, `10k`, `100k`, `1M`, … for view counts on an axis.
func compactCount(_ value: Double) -> String {
  let whole = UInt64(max(0, value.rounded()))
  switch whole {
  case 1_000_000_000...: return trimmingZeros("\(ReportUnits.significant(Double(whole) / 1e9))G")
  case 1_000_000...: return trimmingZeros("\(ReportUnits.significant(Double(whole) / 1e6))M")
  case 1_000...: return trimmingZeros("\(ReportUnits.significant(Double(whole) / 1e3))k")
  default: return "\(whole)"
  }
}

/// `1.00 µs` → `1 µs`, `2.50k` → `2.5k`: drops zeros after the decimal point of the leading
/// number, for axis labels.
package func trimmingZeros(_ label: String) -> String {
  let numberEnd = label.firstIndex { !($0.isNumber || $0 == "." || $0 == "-") } ?? label.endIndex
  var number = String(label[..<numberEnd])
  guard number.contains(".") else { return label }
  while number.hasSuffix("0") { number.removeLast() }
  if number.hasSuffix(".") { number.removeLast() }
  return number + label[numberEnd...]
}
