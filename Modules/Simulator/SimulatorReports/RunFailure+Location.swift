extension RunFailure {
  /// Where the failure is (`file:line:col`) and what to print after it, with the location
  /// printed once.
  ///
  /// A step's message is already a diagnostic that starts with its location
  /// (`s3.flow:2:1: error: expectation failed: …`, then the line and a caret); printing the
  /// failure's own location before it gave `s3.flow:2:1 (step 1) expectation: s3.flow:2:1:
  /// error: …`. When the message starts with the location, the text is the message without it
  /// (`error: expectation failed: …`); otherwise it is `KIND: MESSAGE`.
  ///
  /// - Complexity: O(length of the message's first line).
  /// - Note: Isolation: a pure function of the value; any thread.
  func located(in file: String) -> (location: String, text: String) {
    var location = file
    if let line {
      location += ":\(line)"
      if let column { location += ":\(column)" }
    }
    let prefix = location + ": "
    if line != nil, message.hasPrefix(prefix) {
      return (location, String(message.dropFirst(prefix.count)))
    }
    return (location, "\(kind.rawValue): \(message)")
  }
}
