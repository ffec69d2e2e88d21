import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary folders `weft-sim` makes (one per simulated app, for its on-disk database),
/// removed on every way out of the process.
///
/// A folder is named `weft-sim-<pid>-<uuid>` in the temporary directory (`TMPDIR`, else
/// `/tmp`) and registered before it is created. It is removed by the app's `shutDown()` (`HealthSimulation.shutDown()`);
/// whatever is still registered when the process ends is removed by an exit handler (a
/// normal exit, an error exit, `check`) or by the SIGINT/SIGTERM handlers, which then exit
/// with status 128 + the signal number (130, 143). A run killed with SIGKILL cannot clean
/// up: the next run's first `make()` removes every `weft-sim-<pid>-…` folder whose process
/// no longer exists.
///
/// ```swift
/// let folder = try TemporaryFolders.make()   // also installs the cleanup, once
/// defer { TemporaryFolders.remove(folder) }
/// ```
///
/// - Note: Isolation: any; the registry is behind a `Mutex`; a signal's cleanup runs on
///   `ExitSignals`' watcher thread.
/// - Complexity: `make`/`remove` O(1) plus the file system; the first `make` also lists the
///   temporary directory once.
public enum TemporaryFolders {
  /// The prefix of every folder's name.
  public static let prefix = "weft-sim-"

  private struct State: ~Copyable {
    var live: Set<String> = []
    var installed = false
  }

  private static let state = Mutex(State())

  /// Makes a new folder for this process, registered for removal at exit. The first call in
  /// a process removes the leftovers of dead runs and installs the exit and signal cleanup.
  ///
  /// - Throws: `SimulationError` when the folder cannot be created.
  /// - Complexity: O(1) plus the file system (the first call: O(entries) of the temporary
  ///   directory).
  public static func make() throws(SimulationError) -> URL {
    let directory = FileManager.default.temporaryDirectory
    installCleanup(sweeping: directory)
    // The pid zero-padded to Int32's ten digits: every run's paths have one length, so the
    // strings built from them (the database's path, its journal's) allocate the same way
    // whatever pid a run gets — allocation counts must not depend on it.
    let pid = String(ProcessInfo.processInfo.processIdentifier)
    let padded = String(repeating: "0", count: max(0, 10 - pid.count)) + pid
    let folder = directory.appendingPathComponent("\(prefix)\(padded)-\(UUID())")
    // Registered and created under the lock: a signal's `removeAll()` waits for the folder
    // to exist, so it never finds the path registered but not yet created and exits while
    // the folder appears behind it.
    let failure = state.withLock { state -> (any Error)? in
      state.live.insert(folder.path)
      do {
        // Owner-only: the app's database and secrets go in it.
        try FileManager.default.createDirectory(
          at: folder, withIntermediateDirectories: true,
          attributes: [.posixPermissions: 0o700])
        return nil
      } catch {
        state.live.remove(folder.path)
        return error
      }
    }
    if let failure {
      throw SimulationError(
        "cannot create the temporary folder '\(folder.path)': \(failure.localizedDescription)")
    }
    return folder
  }

  /// Removes `folder` and forgets it. When it cannot be removed it stays registered, so the
  /// exit handler tries again.
  ///
  /// - Complexity: O(files in the folder).
  public static func remove(_ folder: URL) {
    do {
      try FileManager.default.removeItem(at: folder)
      state.withLock { _ = $0.live.remove(folder.path) }
    } catch {
      // Still registered: the exit handler retries, and a later run's sweep removes what a
      // killed process left. Nothing a caller could do better now.
      if !FileManager.default.fileExists(atPath: folder.path) {
        state.withLock { _ = $0.live.remove(folder.path) }
      }
    }
  }

  /// The registered folders that still exist (for tests and diagnostics).
  public static var live: [String] { state.withLock { $0.live.sorted() } }

  /// Removes every registered folder; what the exit and signal handlers do.
  static func removeAll() {
    let paths = state.withLock { state -> Set<String> in
      defer { state.live.removeAll() }
      return state.live
    }
    for path in paths {
      // The app's other threads still run until the process exits: a database being created
      // when a signal arrives adds files while the folder is removed, and the removal fails
      // (the folder is not empty). Try again for up to 100 ms, until the folder is gone. The
      // process is ending and there is nobody left to tell; the next run's sweep removes what
      // stays (this pid is dead by then).
      for _ in 0..<50 {
        try? FileManager.default.removeItem(atPath: path)  // try?: retried, then swept
        if !FileManager.default.fileExists(atPath: path) { break }
        usleep(2_000)
      }
    }
  }

  /// Removes the `weft-sim-<pid>-…` folders in `directory` whose process is gone; returns the
  /// names removed. A folder whose pid is alive (another run, or a reused pid) is kept.
  ///
  /// - Complexity: O(entries in `directory`).
  @discardableResult
  public static func sweepStale(in directory: URL) -> [String] {
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    } catch {
      return []  // no temporary directory to list: nothing was left there either
    }
    let own = ProcessInfo.processInfo.processIdentifier
    var removed: [String] = []
    for name in names where name.hasPrefix(prefix) {
      let digits = name.dropFirst(prefix.count).prefix { $0 != "-" }
      guard let pid = Int32(digits), pid > 0, pid != own, !isAlive(pid) else { continue }
      do {
        try FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        removed.append(name)
      } catch {
        continue  // another user's folder, or another run swept it first: not ours to fix
      }
    }
    return removed
  }

  /// Whether a process `pid` exists (`kill(pid, 0)`: only ESRCH means it does not).
  static func isAlive(_ pid: Int32) -> Bool {
    kill(pid, 0) == 0 || errno != ESRCH
  }

  /// Once per process: sweeps dead runs' leftovers in `directory` and installs the exit
  /// handler and the SIGINT/SIGTERM handlers (`ExitSignals`).
  private static func installCleanup(sweeping directory: URL) {
    let first = state.withLock { state -> Bool in
      defer { state.installed = true }
      return !state.installed
    }
    guard first else { return }
    sweepStale(in: directory)
    atexit { TemporaryFolders.removeAll() }
    ExitSignals.install { TemporaryFolders.removeAll() }
  }
}
