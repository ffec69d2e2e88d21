/// Readable numbers for reports: durations in ns/µs/ms/s, sizes in B/KiB/MiB/GiB, counts with
/// thousands separators — three significant digits, the same text on every machine (no locale).
///
/// ```swift
/// ReportUnits.duration(nanoseconds: 18_240)  // "18.2 µs"
/// ReportUnits.bytes(503_316_480)             // "480 MiB"
/// ReportUnits.count(100_000)                 // "100,000"
/// ```
///
/// - Complexity: O(1) per call.
/// - Note: Isolation: stateless; any thread.
public enum ReportUnits {
  /// A duration in the largest unit that keeps it at least 1: `850 ns`, `18.2 µs`, `4.56 ms`,
  /// `1.23 s`.
  public static func duration(nanoseconds: UInt64) -> String {
    if nanoseconds < 1_000 { return "\(nanoseconds) ns" }
    return duration(nanoseconds: Double(nanoseconds))
  }

  /// A fractional duration, as ``duration(nanoseconds:)-(UInt64)``; below 1 ns it keeps
  /// decimals (`0.42 ns`).
  public static func duration(nanoseconds: Double) -> String {
    if nanoseconds == 0 { return "0 ns" }
    return scaled(nanoseconds, step: 1_000, units: ["ns", "µs", "ms", "s"])
  }

  /// A size in the largest binary unit that keeps it at least 1: `512 B`, `12.5 KiB`, `480 MiB`.
  public static func bytes(_ bytes: UInt64) -> String {
    if bytes < 1_024 { return "\(bytes) B" }
    return self.bytes(Double(bytes))
  }

  /// A fractional size, as ``bytes(_:)-(UInt64)``.
  public static func bytes(_ bytes: Double) -> String {
    if bytes == 0 { return "0 B" }
    return scaled(bytes, step: 1_024, units: ["B", "KiB", "MiB", "GiB", "TiB"])
  }

  /// A count with a comma every three digits: `100,000`.
  public static func count(_ value: UInt64) -> String {
    let digits = Array(String(value))
    var text = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index).isMultiple(of: 3) { text.append(",") }
      text.append(digit)
    }
    return text
  }

  /// A rate per second with three significant digits: `82.9/s`, `12,300/s`.
  public static func perSecond(_ value: Double) -> String {
    "\(significant(value))/s"
  }

  /// A ratio as the gate prints it: `1.42×`.
  public static func ratio(_ value: Double) -> String { "\(fixed(value, decimals: 2))×" }

  /// `value` with three significant digits (two decimals below 10, one below 100, none above;
  /// thousands grouped from 1,000).
  public static func significant(_ value: Double) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
    let magnitude = abs(value)
    if magnitude.rounded() >= 1_000 && magnitude < 9e18 {
      return (value < 0 ? "-" : "") + count(UInt64(magnitude.rounded()))
    }
    let decimals = magnitude < 10 ? 2 : (magnitude < 100 ? 1 : 0)
    return fixed(value, decimals: decimals)
  }

  /// `value` rounded to `decimals` places, without exponent or locale.
  public static func fixed(_ value: Double, decimals: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
    var scale = 1.0
    for _ in 0..<max(0, decimals) { scale *= 10 }
    let scaledValue = (abs(value) * scale).rounded()
    guard scaledValue < 9e18 else { return value < 0 ? "-\(abs(value))" : "\(value)" }
    let whole = UInt64(scaledValue)
    let unit = UInt64(scale)
    let sign = value < 0 && whole > 0 ? "-" : ""
    guard decimals > 0 else { return "\(sign)\(whole)" }
    let fraction = String(whole % unit)
    let padding = String(repeating: "0", count: decimals - fraction.count)
    return "\(sign)\(whole / unit).\(padding)\(fraction)"
  }

  private static func scaled(_ value: Double, step: Double, units: [String]) -> String {
    guard value.isFinite else { return "\(significant(value)) \(units[0])" }
    var amount = value
    var unit = 0
    // Move up while the value, once rounded, would print as 1000 or more.
    while unit < units.count - 1 && rounded3(abs(amount)) >= (step == 1_000 ? 1_000 : step) {
      amount /= step
      unit += 1
    }
    return "\(significant(amount)) \(units[unit])"
  }

  private static func rounded3(_ value: Double) -> Double {
    value < 10
      ? (value * 100).rounded() / 100
      : (value < 100 ? (value * 10).rounded() / 10 : value.rounded())
  }
}
