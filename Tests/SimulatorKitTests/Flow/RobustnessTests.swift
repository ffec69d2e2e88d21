import Foundation
import Testing

@testable import SimulatorFlow
@testable import SimulatorKit

/// Nothing a flow file contains may crash the parser: random and mutated input either parses
/// or fails with a `FlowError` that points inside the input.
@Suite struct Robustness {
  /// SplitMix64: a small, seeded, deterministic generator.
  struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  /// Tokens and fragments the fuzzer builds inputs from: real words, punctuation, numbers at
  /// the edges of their ranges, and hostile characters.
  static let alphabet: [String] = {
    let commands = FlowTesting.commands.commands
    var tokens = commands.map(\.name)
    tokens += commands.flatMap(\.keywords).map { $0 + "=" }
    tokens += FlowTesting.metricWords
    tokens += [
      " ", " ", " ", "\n", "\n", "\t", ";", "{", "}", "#", "\"", "\\", "$", "$(", "(", ")", "=",
      "==", "!=", "<", "<=", ">", ">=", "contains", "+", "-", "*", "/", "%", ".", "$i", "$x",
      "as", "observe", "all", "insight", "0", "1", "-1", "2.5", "100", "1_000_001",
      "9223372036854775807", "99999999999999999999", "5s", "250ms", "1.5s", "1h30m", "5x",
      "today", "today-3d", "now+2h", "2026-11-20", "2026-02-30", "2026-11-20T08:30", "true",
      "off", "nil", "auth.state", "outbox.count", "dashboard.summary", "form.result", "x.y",
      "global/C", "\"text\"", "\"$i\"", "\"\\q\"", "é", "✓", "\u{0}", "\u{7}", "\r", "\r\n",
      "\u{2028}", "\u{FEFF}", "let x = ", "repeat 3 {", "repeat 2 as k {", "flow \"f\"", "seed 1",
    ]
    return tokens
  }()

  static func check(_ source: String, _ options: Flow.ParseOptions) {
    do {
      _ = try Flow.parse(
        source: source, file: "fuzz.flow", knownPaths: FlowTesting.paths, options: options)
    } catch {
      let lines = Source(file: "", text: source).scalars
      let line = error.location.line
      #expect(
        line >= 1 && line <= lines.count,
        "line \(line) outside the input: \(source.debugDescription)")
      if line >= 1 && line <= lines.count {
        let column = error.location.column
        #expect(
          column >= 1 && column <= lines[line - 1].count + 1,
          "column \(column) outside line \(line): \(source.debugDescription)")
      }
      #expect(!error.description.isEmpty)
    }
  }

  /// 20,000 random inputs in four seeded chunks, which run in parallel.
  @Test(arguments: 0..<4)
  func randomInputNeverCrashes(chunk: UInt64) {
    var generator = SeededGenerator(state: 0x5EED &+ chunk)
    let options = FlowTesting.options(maxSteps: 2_000)
    for _ in 0..<5_000 {
      let count = Int.random(in: 1...24, using: &generator)
      var source = ""
      for _ in 0..<count {
        source += Self.alphabet.randomElement(using: &generator) ?? ""
        if Bool.random(using: &generator) { source += " " }
      }
      Self.check(source, options)
    }
  }

  @Test func randomBytesNeverCrash() {
    var generator = SeededGenerator(state: 42)
    let options = FlowTesting.options(maxSteps: 2_000)
    for _ in 0..<2_000 {
      let bytes = (0..<Int.random(in: 0...64, using: &generator)).map { _ in
        UInt8.random(in: 0...255, using: &generator)
      }
      Self.check(String(decoding: bytes, as: UTF8.self), options)
    }
  }

  @Test(arguments: BundledFlows.files)
  func mutatedBundledFlowsNeverCrash(_ name: String) throws {
    let original = Array(try BundledFlows.source(name))
    var generator = SeededGenerator(state: name.utf8.reduce(7) { $0 &* 31 &+ UInt64($1) })
    let options = FlowTesting.options(maxSteps: 200_000)
    let inserts: [Character] = [
      "{", "}", "\"", "$", "(", ")", "=", ";", "#", "\n", " ", "x", "0", "\\",
    ]
    for _ in 0..<250 {
      var mutated = original
      for _ in 0..<Int.random(in: 1...3, using: &generator) where !mutated.isEmpty {
        let index = Int.random(in: 0..<mutated.count, using: &generator)
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: mutated.remove(at: index)
        case 1: mutated.insert(inserts.randomElement(using: &generator) ?? "x", at: index)
        default:
          let other = Int.random(in: 0..<mutated.count, using: &generator)
          mutated.swapAt(index, other)
        }
      }
      Self.check(String(mutated), options)
    }
  }
}
