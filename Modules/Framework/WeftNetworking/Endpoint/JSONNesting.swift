import Foundation

/// How deeply a JSON text nests arrays and objects, found by one pass over its bytes that
/// skips strings: the check `Endpoint` runs before decoding, so a response nested deeper
/// than `JSONCoding.maximumNestingDepth` fails with a `.decoding` `NetworkError` instead of
/// reaching the decoder's recursion.
///
/// - Complexity: O(n), n = bytes; stops at the first level past the limit.
/// - Note: Allocations: none.
enum JSONNesting {
  /// Whether `body` nests deeper than `limit` (arrays and objects, at any place).
  static func exceeds(_ limit: Int, in body: Data) -> Bool {
    body.withUnsafeBytes { bytes in
      var depth = 0
      var inString = false
      var escaped = false
      for byte in bytes {
        if inString {
          if escaped {
            escaped = false
          } else if byte == UInt8(ascii: "\\") {
            escaped = true
          } else if byte == UInt8(ascii: "\"") {
            inString = false
          }
          continue
        }
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "["), UInt8(ascii: "{"):
          depth += 1
          if depth > limit { return true }
        case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
        default: break
        }
      }
      return false
    }
  }
}
