#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where WeftCore reports misuse it can detect but not prevent, in debug builds: today, a
/// MainActor subscription released while a delivery was pending for it (the commit it was
/// alive for never reaches it). By default a line on standard error; tests and tools set
/// `handler` to collect them.
///
/// ```swift
/// func show(_ client: Counter) async {          // nonisolated
///   let token = client.observeOnMainActor(\.value) { print($0.value) }
///   await client.update { $0.value = 1 }
/// }                                             // token released before the MainActor ran:
///                                               // "weft: a MainActor subscription to …"
/// ```
///
/// - Complexity: O(1) per report.
/// - Note: Isolation: thread-safe; the handler runs on the thread that released the token.
public enum WeftDiagnostics {
  private static let storage = Locked<(@Sendable (String) -> Void)?>(nil)

  /// Receives each report; `nil` (the default) writes it to standard error.
  ///
  /// - Complexity: O(1).
  public static var handler: (@Sendable (String) -> Void)? {
    get { storage.withLock { $0 } }
    set { storage.withLock { $0 = newValue } }
  }

  static func releasedWithDeliveryPending(_ group: GroupBase) {
    report(
      "weft: a MainActor subscription to \(group.owner?.name ?? "a cell").\(group.selectorDescription) was released while a "
        + "delivery was pending for it, so that change will not reach it. Keep the "
        + "StateSubscription alive until the MainActor has run (store it, or await a MainActor "
        + "hop first); call cancel() to stop deliveries on purpose.")
  }

  static func report(_ message: String) {
    if let handler { return handler(message) }
    let line = message + "\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
  }
}
