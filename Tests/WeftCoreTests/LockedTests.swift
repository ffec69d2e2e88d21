import Foundation
import Synchronization
import Testing
import WeftCore

/// `Locked.withLockIfAvailable`: runs when the lock is free, returns `nil` without waiting
/// when another thread holds it.
@Suite struct LockedTests {
  @Test func withLockIfAvailableRunsOnlyWhenTheLockIsFree() async throws {
    let counter = Locked(0)
    #expect(
      counter.withLockIfAvailable { value -> Int in
        value += 1
        return value
      } == 1)
    let flags = HolderFlags()
    let holder = Thread {
      counter.withLock { _ in
        flags.held.store(true, ordering: .releasing)
        while !flags.release.load(ordering: .acquiring) { usleep(1_000) }
      }
    }
    holder.start()
    while !flags.held.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(1)) }
    #expect(
      counter.withLockIfAvailable { value -> Int in
        value += 1
        return value
      } == nil)
    flags.release.store(true, ordering: .releasing)
    // Once released, it runs again (the holder may still be leaving the lock: retry).
    var result: Int?
    while result == nil {
      result = counter.withLockIfAvailable { $0 }
      if result == nil { try await Task.sleep(for: .milliseconds(1)) }
    }
    #expect(result == 1)
  }
}

/// Two flags between the test and the thread holding the lock.
private final class HolderFlags: Sendable {
  let held = Atomic<Bool>(false)
  let release = Atomic<Bool>(false)
}
