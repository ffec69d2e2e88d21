/// Comparing two runs' job records: where a run that should repeat first did something else.
///
/// ```swift
/// if let divergence = JobTrace.firstDivergence(first, second) {
///   print(divergence.description)   // "job 57 (during 'step 4, line 9'): run 1 ran …"
/// }
/// ```
///
/// - Note: Isolation: pure functions.
public enum JobTrace {
  /// Where two traces part.
  public struct Divergence: Sendable, Equatable, CustomStringConvertible {
    /// The first record that differs in each run (`nil`: that run had ended).
    public var first: JobRecord?
    public var second: JobRecord?

    /// The job, the step it ran in, what each run did, and the likely cause.
    public var description: String {
      let at = first ?? second
      var text = "job \(at?.index ?? 0)"
      if let mark = at?.mark, !mark.isEmpty { text += " (during \(mark))" }
      text += ": run 1 ran " + (first?.action ?? "nothing more (it had ended)")
      text += "; run 2 ran " + (second?.action ?? "nothing more (it had ended)")
      if first?.fromOtherThread == true || second?.fromOtherThread == true {
        text +=
          ". The job came from a thread outside the runtime (a C library's callback thread, "
          + "a Thread or DispatchQueue of the app's own): it arrives when real time decides. "
          + "Run that work as a task, or announce it with beginExternalWork/endExternalWork"
      } else if first?.virtualTime != second?.virtualTime {
        text +=
          ". Virtual time differs: a clock read the runtime does not answer (a platform "
          + "without CDeterministicWorld, or WEFT_REAL_CLOCKS=1) decided a sleep's length"
      } else {
        text +=
          ". Same time, different job: something outside the schedule decided the order — "
          + "a random source or clock the runtime does not own (reading /dev/urandom, a "
          + "system call made directly), or state left from before the run"
      }
      return text
    }
  }

  /// The first position where `first` and `second` differ, or `nil` when they are equal.
  ///
  /// - Complexity: O(n), n = records.
  public static func firstDivergence(_ first: [JobRecord], _ second: [JobRecord]) -> Divergence? {
    for index in 0..<max(first.count, second.count) {
      let a = index < first.count ? first[index] : nil
      let b = index < second.count ? second[index] : nil
      if a != b { return Divergence(first: a, second: b) }
    }
    return nil
  }
}
