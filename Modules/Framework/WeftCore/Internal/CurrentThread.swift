#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The calling thread's identity as a plain number, for "is this the thread that …" checks
/// in Weft's modules (a connection's holder, a socket's reader thread). `pthread_t` is an
/// integer on Linux and a pointer on Darwin; its bits serve both, and are `Sendable`.
///
/// - Complexity: O(1).
/// - Note: Isolation: any thread.
package enum CurrentThread {
  /// This thread's id; never 0.
  package static var id: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }
}
