// The only file that touches the `_Concurrency` executor SPI (Swift 6.3): the MainActor's
// executor and the global executor of a deterministic run, both handing their jobs to one
// `RuntimeLoop`. Everything else in WeftRuntime is plain Swift.
@_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency

/// Installs the runtime's executors as the process's MainActor and global executors.
///
/// - Returns: whether they were installed (false where the SPI is missing: Apple platforms
///   before 26.4).
/// - Note: Isolation: call once, before any asynchronous work has run.
func installRuntimeExecutors(_ loop: RuntimeLoop) -> Bool {
  guard #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) else {
    return false
  }
  RuntimeExecutorFactory.loop.install(loop)
  _createExecutors(factory: RuntimeExecutorFactory.self)
  return true
}

/// Runs the loop on the calling thread as the MainActor's run loop until `stop()`.
///
/// - Note: Isolation: the thread that will be the runtime's only thread.
func runMainExecutor() throws {
  guard #available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *) else {
    return
  }
  try MainActor.executor.run()
}

/// The loop the factory hands out; set once before `_createExecutors`.
final class LoopSlot: Sendable {
  // WeftCore-free: this module depends on nothing. The slot is written once, by
  // `installRuntimeExecutors`, before `_createExecutors` lets any other thread see the
  // executors; after that it is only read.
  private let storage = RuntimeLock<RuntimeLoop?>(nil)
  func install(_ loop: RuntimeLoop) { storage.withLock { $0 = loop } }
  var loop: RuntimeLoop {
    guard let loop = storage.withLock({ $0 }) else {
      fatalError("WeftRuntime: the executor factory was asked for an executor before install")
    }
    return loop
  }
}

@available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
enum RuntimeExecutorFactory: ExecutorFactory {
  static let loop = LoopSlot()
  static let main = RuntimeMainExecutor(loop: loop.loop)
  static let global = RuntimeGlobalExecutor(loop: loop.loop)
  static var mainExecutor: any MainExecutor { main }
  static var defaultExecutor: any TaskExecutor { global }
}

/// The MainActor's executor in a deterministic run: a serial lane of the loop.
@available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
final class RuntimeMainExecutor: MainExecutor, SchedulingExecutor, RuntimeJobRunner, Sendable {
  let loop: RuntimeLoop
  init(loop: RuntimeLoop) { self.loop = loop }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    ContinuationProbe.noteEnqueued(job)
    loop.enqueue(.task(job), lane: .main)
  }

  func enqueue<C: Clock>(
    _ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C
  ) {
    loop.schedule(.task(UnownedJob(job)), lane: .main, after: delay)
  }

  func enqueue<C: Clock>(
    _ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C
  ) {
    loop.schedule(.task(UnownedJob(job)), lane: .main, at: instant, on: clock)
  }

  func run() throws { loop.run(main: self, global: RuntimeExecutorFactory.global) }
  func stop() { loop.stop() }
  var isMainExecutor: Bool { true }
  func checkIsolated() {
    guard loop.isRunningMainJob else {
      fatalError("WeftRuntime: expected to run on the MainActor (a deterministic run's main lane)")
    }
  }
  func isIsolatingCurrentContext() -> Bool? { loop.isRunningMainJob }

  func runJob(_ job: UnownedJob) {
    job.runSynchronously(
      isolatedTo: asUnownedSerialExecutor(),
      taskExecutor: RuntimeExecutorFactory.global.asUnownedTaskExecutor())
  }
}

/// The global executor in a deterministic run: the loop's concurrent lane.
@available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
final class RuntimeGlobalExecutor: TaskExecutor, SchedulingExecutor, RuntimeJobRunner, Sendable {
  let loop: RuntimeLoop
  init(loop: RuntimeLoop) { self.loop = loop }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    ContinuationProbe.noteEnqueued(job)
    loop.enqueue(.task(job), lane: .global)
  }

  func enqueue<C: Clock>(
    _ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C
  ) {
    loop.schedule(.task(UnownedJob(job)), lane: .global, after: delay)
  }

  func enqueue<C: Clock>(
    _ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C
  ) {
    loop.schedule(.task(UnownedJob(job)), lane: .global, at: instant, on: clock)
  }

  func runJob(_ job: UnownedJob) {
    job.runSynchronously(on: asUnownedTaskExecutor())
  }
}

/// A job as the loop stores it: a task's job, or a body that Weft's own code hands the
/// runtime instead of a thread (a SQLite connection's work, an observation pass).
enum RuntimeJob: Sendable {
  case task(UnownedJob)
  case body(@Sendable () -> Void)
}
