import WeftCore

/// Multi-client transactions: all participating clients change, or none does.
extension Context {
  /// Runs `body` over several clients as one transaction: snapshots every client first,
  /// and if `body` throws or `consistency` returns false, restores every client whose
  /// state changed to its snapshot.
  ///
  /// ```swift
  /// let walletIsNotNegative = { wallet.state.balance >= 0 }
  /// try await context.transaction(over: [inventory, orders, wallet],
  ///                               checking: walletIsNotNegative) {
  ///   await inventory.update { $0.stock -= 1 }
  ///   await orders.update { $0.lines.append(line) }
  ///   await wallet.update { $0.balance -= line.price }
  /// }
  /// ```
  ///
  /// > Important: The snapshots are taken when the transaction starts and restored as new
  /// > commits (versions never go back). A commit that another party makes to a
  /// > participating client during the transaction is undone by a rollback too: run
  /// > transactions where the participants are not written from elsewhere meanwhile.
  ///
  /// - Parameters:
  ///   - clients: the participants.
  ///   - consistency: checked after `body` returns; false rolls back.
  ///   - body: the work; ask the clients for updates in it.
  /// - Returns: what `body` returns.
  /// - Throws: `body`'s error, after the rollback; `TransactionError` when the consistency
  ///   check failed, after the rollback.
  /// - Complexity: O(c) snapshots and, on rollback, O(c) restores, c = clients; plus
  ///   `body`.
  /// - Note: Isolation: MainActor; restores run on each client's actor, one after another
  ///   in the order given.
  /// - Note: Allocations: one checkpoint per client.
  public func transaction<Result>(
    over clients: [any Client], checking consistency: (() async -> Bool)? = nil,
    _ body: () async throws -> Result
  ) async throws -> Result {
    let checkpoints = clients.map { Checkpoint($0) }
    let result: Result
    do {
      result = try await body()
    } catch {
      await Checkpoint.restore(checkpoints)
      throw error
    }
    if let consistency, await !consistency() {
      let restored = await Checkpoint.restore(checkpoints)
      throw TransactionError(context: path, clients: checkpoints.map(\.name), restored: restored)
    }
    return result
  }
}

/// A participant's state at the start of a transaction, and how to put it back.
struct Checkpoint: Sendable {
  let name: String
  let version: UInt64
  let currentVersion: @Sendable () -> UInt64
  let restore: @Sendable () async -> Void

  init<C: Client>(_ client: C) {
    let snapshot = client.snapshot
    name = client.cell.name
    version = snapshot.version
    currentVersion = { client.cell.version }
    restore = { await client.restore(snapshot) }
  }

  /// Restores every checkpoint whose client changed; returns the names restored.
  @discardableResult
  static func restore(_ checkpoints: [Checkpoint]) async -> [String] {
    var restored: [String] = []
    for checkpoint in checkpoints where checkpoint.currentVersion() != checkpoint.version {
      await checkpoint.restore()
      restored.append(checkpoint.name)
    }
    return restored
  }
}

/// A transaction's consistency check failed; every participant was restored.
///
/// - Note: Isolation: a `Sendable` value.
public struct TransactionError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The path of the context that ran the transaction.
  public let context: String
  /// The participating clients, by cell name, in the order given.
  public let clients: [String]
  /// The clients that had changed and were restored.
  public let restored: [String]

  public var description: String {
    "transaction on context '\(context)' failed its consistency check; every client ("
      + clients.map { "'\($0)'" }.joined(separator: ", ")
      + ") is back to its state from before the transaction (restored: "
      + (restored.isEmpty ? "none had changed" : restored.map { "'\($0)'" }.joined(separator: ", "))
      + "). Fix the transaction's body so that the check holds, or correct the check."
  }
}

extension ClientContext {
  /// A transaction over this context's primary and supporting clients (see
  /// `transaction(over:checking:_:)`); the mirror shows the outcome when it returns.
  ///
  /// - Complexity: O(c), c = 1 + supporting clients; plus `body`.
  public func transaction<Result>(
    checking consistency: (() async -> Bool)? = nil, _ body: () async throws -> Result
  ) async throws -> Result {
    defer { mirror.catchUp(to: client.cell.version) }
    return try await transaction(
      over: [client] + supportingClients, checking: consistency, body)
  }
}
