import Foundation
import Observation
import Synchronization

/// Apple's Observation: N `withObservationTracking` registrations, re-registered after each
/// change (the way a view keeps observing).
final class ObservationTracking: FanOutScenario {
  static let name = "Observation (withObservationTracking)"

  final class Model: Observable, @unchecked Sendable {
    // `@unchecked`: the benchmark touches the model from the MainActor only.
    let registrar = ObservationRegistrar()
    private var storage = 0
    var value: Int {
      get {
        registrar.access(self, keyPath: \.value)
        return storage
      }
      set { registrar.withMutation(of: self, keyPath: \.value) { storage = newValue } }
    }
  }

  let model = Model()
  let sinks: [Sink]
  let fired = Sink()
  var deliveriesPerCommit: Int { sinks.count }

  init(subscribers: Int) {
    sinks = (0..<subscribers).map { _ in Sink() }
    for sink in sinks { track(sink) }
  }

  private func track(_ sink: Sink) {
    let model = self.model
    let fired = self.fired
    withObservationTracking {
      sink.take(model.value)
    } onChange: {
      fired.take(1)
    }
  }

  func run(commits: Int, from start: Int) {
    for commit in start..<(start + commits) {
      model.value = commit
      for sink in sinks { track(sink) }  // re-register, reading the new value
    }
  }
}

/// Foundation's NotificationCenter: N block observers, one post per commit.
final class NotificationCenterPeer: FanOutScenario {
  static let name = "NotificationCenter"
  static let changed = Notification.Name("weft.bench.changed")

  final class Box: @unchecked Sendable {
    // `@unchecked`: written before the post, read by observers during the synchronous post.
    var value = 0
  }

  let center = NotificationCenter()
  let box = Box()
  var tokens: [any NSObjectProtocol] = []
  let sinks: [Sink]
  var deliveriesPerCommit: Int { sinks.count }

  init(subscribers: Int) {
    sinks = (0..<subscribers).map { _ in Sink() }
    tokens = sinks.map { sink in
      center.addObserver(forName: Self.changed, object: nil, queue: nil) { note in
        sink.take((note.object as! Box).value)
      }
    }
  }

  func run(commits: Int, from start: Int) {
    for commit in start..<(start + commits) {
      box.value = commit
      center.post(name: Self.changed, object: box)
    }
  }
}

/// N `AsyncStream` consumers, each on its own task; a commit completes when all received.
final class AsyncStreamPeer: FanOutScenario {
  static let name = "AsyncStream (N consumers)"

  /// Counts consumers still to receive the current commit; the last one wakes the producer.
  final class Countdown: Sendable {
    let remaining = Atomic<Int>(0)
    let waiter = Mutex<CheckedContinuation<Void, Never>?>(nil)

    func arrive() {
      if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
        waiter.withLock { $0.take() }?.resume()
      }
    }
  }

  let continuations: [AsyncStream<Int>.Continuation]
  let consumers: [Task<Void, Never>]
  let sinks: [Sink]
  let countdown = Countdown()
  var deliveriesPerCommit: Int { continuations.count }

  init(subscribers: Int) {
    var continuations: [AsyncStream<Int>.Continuation] = []
    var consumers: [Task<Void, Never>] = []
    var sinks: [Sink] = []
    let countdown = self.countdown
    for _ in 0..<subscribers {
      let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
      let sink = Sink()
      sinks.append(sink)
      continuations.append(continuation)
      consumers.append(
        Task.detached {
          for await value in stream {
            sink.take(value)
            countdown.arrive()
          }
        })
    }
    self.continuations = continuations
    self.consumers = consumers
    self.sinks = sinks
  }

  deinit {
    for continuation in continuations { continuation.finish() }
  }

  func run(commits: Int, from start: Int) async {
    for commit in start..<(start + commits) {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        countdown.waiter.withLock { $0 = continuation }
        countdown.remaining.store(continuations.count, ordering: .releasing)
        for stream in continuations { stream.yield(commit) }
      }
    }
  }
}
