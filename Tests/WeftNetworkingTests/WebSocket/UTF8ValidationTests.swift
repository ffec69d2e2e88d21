import Foundation
import Testing

@testable import WeftNetworking

/// Incremental UTF-8 validation (RFC 6455 §8.1: fail fast, 1007): the validator alone, then the
/// decoder failing at the first bad byte while a frame or a message is still incomplete.
@Suite("WebSocket UTF-8 validation")
struct UTF8ValidationTests {
  /// Whether the standard library finds `bytes` valid: decoding replaces invalid sequences, so
  /// only valid input round-trips.
  private func standardLibraryAccepts(_ bytes: [UInt8]) -> Bool {
    String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(bytes)
  }

  private func validatorAccepts(_ bytes: [UInt8], splitAt split: Int? = nil) -> Bool {
    var validator = UTF8Validator()
    let cut = split ?? bytes.count
    guard validator.validate(bytes[..<cut]) == nil else { return false }
    guard validator.validate(bytes[cut...]) == nil else { return false }
    return validator.isComplete
  }

  @Test func agreesWithTheStandardLibraryOnEdgeSequences() {
    let cases: [[UInt8]] = [
      Array("κόσμε".utf8), Array("plain ascii, longer than eight bytes".utf8),
      [0xF0, 0x9F, 0x98, 0x80],  // U+1F600
      [0xF4, 0x8F, 0xBF, 0xBF],  // U+10FFFF, the last scalar
      [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
      [0xED, 0xA0, 0x80],  // a surrogate
      [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xF0, 0x80, 0x80, 0xAF],  // overlong
      [0xC2], [0xE2, 0x82], [0x80], [0xFE], [0xFF], [0xF8, 0x88, 0x80, 0x80, 0x80],
      Array("valid then ".utf8) + [
        0xCE, 0xBA, 0xE1, 0xBD, 0xB9, 0xCF, 0x83, 0xCE, 0xBC, 0xCE, 0xB5,
      ]
        + [0xED, 0xA0, 0x80] + Array("edited".utf8),
    ]
    for bytes in cases {
      for split in 0...bytes.count {
        #expect(
          validatorAccepts(bytes, splitAt: split) == standardLibraryAccepts(bytes),
          "\(bytes) split at \(split)")
      }
    }
  }

  @Test func agreesWithTheStandardLibraryOnSeededRandomBytes() {
    var random = SeededRandom(seed: 11)
    for _ in 0..<3_000 {
      let count = Int.random(in: 0...24, using: &random)
      // Mostly bytes that start or continue sequences, so invalid and valid both appear.
      let bytes = (0..<count).map { _ in
        Bool.random(using: &random)
          ? UInt8.random(in: 0x80...0xF5, using: &random)
          : UInt8.random(in: 0x20...0x7F, using: &random)
      }
      let split = Int.random(in: 0...count, using: &random)
      #expect(validatorAccepts(bytes, splitAt: split) == standardLibraryAccepts(bytes), "\(bytes)")
    }
  }

  /// Long ASCII runs go 32 and 8 bytes a step and two-byte characters in one: a character or a
  /// bad byte at every position of a 100-byte run, and every cut, still agree with the standard
  /// library and report the bad byte's own offset.
  @Test func longRunsAgreeWithTheStandardLibraryAtEveryPosition() {
    let inserts: [[UInt8]] = [
      [0xC3, 0xA9],  // é: the two-byte step
      [0xC3], [0xC3, 0x41], [0xC1, 0xBF], [0x80],  // cut, bad continuation, overlong, stray
      [0xE2, 0x82, 0xAC], [0xED, 0xA0, 0x80], [0xF0, 0x9F, 0x98, 0x80], [0xFF],
    ]
    for insert in inserts {
      for position in 0...100 {
        let bytes =
          [UInt8](repeating: 0x61, count: position) + insert
          + [UInt8](repeating: 0x62, count: 100 - position)
        let valid = standardLibraryAccepts(bytes)
        for split in [0, position, position + 1, bytes.count / 2, bytes.count] {
          #expect(
            validatorAccepts(bytes, splitAt: min(split, bytes.count)) == valid,
            "\(insert) at \(position), cut at \(split)")
        }
        var validator = UTF8Validator()
        let bad = validator.validate(bytes)
        if valid {
          #expect(bad == nil && validator.isComplete)
        } else if insert == [0xC3] && position == 100 {
          // The run ends inside the character: nothing bad yet, but not complete.
          #expect(bad == nil && !validator.isComplete)
        } else {
          // The first byte that cannot continue: the lead byte itself, or the one after it.
          #expect(bad == position || bad == position + 1, "\(insert) at \(position): \(bad ?? -1)")
        }
      }
    }
  }

  @Test func reportsTheOffsetOfTheFirstBadByte() {
    var validator = UTF8Validator()
    #expect(validator.validate(Array("abcdefghij".utf8) + [0xCE, 0x41]) == 11)
  }

  @Test func anIncompleteFrameFailsAtTheBadByte() {
    // A 1,000-byte text frame of which 20 bytes arrived, the 11th invalid.
    var decoder = WebSocketDecoder()
    decoder.append([0x81, 126, 0x03, 0xE8] + Array("0123456789".utf8) + [0xFF])
    #expect(throws: WebSocketError.invalidUTF8) { try decoder.next() }
  }

  @Test func aFragmentFailsBeforeTheMessageEnds() throws {
    var decoder = WebSocketDecoder()
    // First fragment valid, the second holds an invalid sequence; no final fragment yet.
    decoder.append([0x01, 0x02] + Array("ok".utf8))
    #expect(try decoder.next() == nil)
    decoder.append([0x00, 0x02, 0xED, 0xA0])
    #expect(throws: WebSocketError.invalidUTF8) { try decoder.next() }
  }

  @Test func aCharacterSplitAcrossFragmentsIsValid() throws {
    var decoder = WebSocketDecoder()
    let bytes = Array("é€😀".utf8)
    // Every byte in its own fragment.
    for (index, byte) in bytes.enumerated() {
      let opcode: UInt8 = index == 0 ? 0x01 : 0x00
      decoder.append([(index == bytes.count - 1 ? 0x80 : 0) | opcode, 0x01, byte])
    }
    #expect(try decoder.next() == .message(.text("é€😀")))
  }

  @Test func aMessageEndingInsideACharacterIsInvalid() {
    var decoder = WebSocketDecoder()
    decoder.append([0x01, 0x01, 0xE2, 0x80, 0x01, 0x82])
    #expect(throws: WebSocketError.invalidUTF8) { try decoder.next() }
  }
}
