import WeftCore

/// What the last two planted bugs write: the versions each observer saw, in the order it saw
/// them, and how many transfers finished.
struct Sightings: Sendable, Equatable {
  var first: [Int] = []
  var second: [Int] = []
  var transfers = 0
}

/// Owns the sightings.
actor SightingsClient: Client {
  nonisolated let cell = StateCell(Sightings(), name: "Sightings")
}

/// An observer of the published versions: records each one it is shown.
actor Observer {
  let isFirst: Bool
  let log: SightingsClient
  init(first: Bool, log: SightingsClient) {
    isFirst = first
    self.log = log
  }
  func see(_ version: Int) async {
    let first = isFirst
    await log.update { first ? $0.first.append(version) : $0.second.append(version) }
  }
}

/// A lock taken across awaits (an actor's `lock()` suspends while another task holds it).
actor AsyncLock {
  private var held = false
  private var waiters: [UnsafeContinuation<Void, Never>] = []
  func lock() async {
    guard held else {
      held = true
      return
    }
    await withUnsafeContinuation { waiters.append($0) }
  }
  func unlock() {
    if waiters.isEmpty { held = false } else { waiters.removeFirst().resume() }
  }
}

/// The last two bugs, written as an app would write them.
@MainActor
final class OrderRaces {
  let sightings = SightingsClient()
  let first: Observer
  let second: Observer
  let checking = AsyncLock()
  let savings = AsyncLock()
  private var version = 0

  init() {
    first = Observer(first: true, log: sightings)
    second = Observer(first: false, log: sightings)
  }

  /// Planted bug 6 (observers see writes in different orders): each write is shown to each
  /// observer by a task of its own, so two writes in flight can reach the two observers in
  /// opposite orders.
  func publish() async {
    version += 1
    let version = self.version
    async let toFirst: Void = first.see(version)
    async let toSecond: Void = second.see(version)
    _ = await (toFirst, toSecond)
  }

  /// The control: each write is shown to both observers in one transaction, in write order.
  func publishInOrder() async {
    version += 1
    let version = self.version
    await sightings.update {
      $0.first.append(version)
      $0.second.append(version)
    }
  }

  /// Planted bug 7, first task (two tasks each waiting for the other): takes the checking
  /// account's lock, then the savings account's.
  func transfer() async {
    await checking.lock()
    await savings.lock()
    await finishTransfer()
  }

  /// Planted bug 7, second task: after a little work, takes the two locks in the other order
  /// — when the first task holds checking and waits for savings while this one holds savings,
  /// each waits for the other.
  func sweep() async {
    await Task.yield()
    await savings.lock()
    await checking.lock()
    await finishTransfer()
  }

  /// The control: the same sweep, taking the locks in the transfer's order.
  func sweepInOrder() async {
    await Task.yield()
    await checking.lock()
    await savings.lock()
    await finishTransfer()
  }

  private func finishTransfer() async {
    await sightings.update { $0.transfers += 1 }
    await savings.unlock()
    await checking.unlock()
  }
}
