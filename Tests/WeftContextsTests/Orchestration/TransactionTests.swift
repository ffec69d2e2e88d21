import Testing
import WeftCore

@testable import WeftContexts

/// Multi-client transactions: every participant is restored on error or failed check.
@Suite("Transactions")
@MainActor
struct TransactionTests {
  struct PaymentDeclined: Error {}

  let root = makeRoot("Transactions")
  let inventory = LedgerClient(name: "Inventory", amount: 10)
  let orders = LedgerClient(name: "Orders")
  let wallet = LedgerClient(name: "Wallet", amount: 100)

  /// The consistency check: the wallet never goes negative.
  var walletIsNotNegative: () async -> Bool {
    { [wallet] in wallet.state.amount >= 0 }
  }

  func makeCheckout() -> ClientContext<LedgerClient> {
    ClientContext(client: orders, supporting: [inventory, wallet], named: "Checkout", in: root)
  }

  @Test func aThrowingBodyRestoresAllThreeClients() async {
    let checkout = makeCheckout()
    await #expect(throws: PaymentDeclined.self) {
      try await checkout.transaction {
        await inventory.update { $0.amount -= 1 }
        await orders.update { $0.entries.append("book") }
        await wallet.update { $0.amount -= 30 }
        throw PaymentDeclined()
      }
    }
    #expect(inventory.state == Ledger(amount: 10))
    #expect(orders.state == Ledger())
    #expect(wallet.state == Ledger(amount: 100))
    // Each rollback is a new commit: versions never go back.
    #expect([inventory.cell.version, orders.cell.version, wallet.cell.version] == [2, 2, 2])
    #expect(checkout.state == Ledger())  // the mirror shows the rollback
  }

  @Test func aFailedConsistencyCheckRestoresAllThreeClients() async {
    let checkout = makeCheckout()
    let error = await #expect(throws: TransactionError.self) {
      try await checkout.transaction(checking: walletIsNotNegative) {
        await inventory.update { $0.amount -= 1 }
        await orders.update { $0.entries.append("piano") }
        await wallet.update { $0.amount -= 3000 }
      }
    }
    #expect(inventory.state.amount == 10)
    #expect(orders.state.entries.isEmpty)
    #expect(wallet.state.amount == 100)
    #expect(error?.restored == ["Orders", "Inventory", "Wallet"])
    #expect(
      error?.description
        == "transaction on context 'global/Transactions/Checkout' failed its consistency "
        + "check; every client ('Orders', 'Inventory', 'Wallet') is back to its state from "
        + "before the transaction (restored: 'Orders', 'Inventory', 'Wallet'). Fix the "
        + "transaction's body so that the check holds, or correct the check.")
  }

  @Test func aSuccessfulTransactionKeepsEveryChange() async throws {
    let checkout = makeCheckout()
    let total = try await checkout.transaction(checking: walletIsNotNegative) {
      await inventory.update { $0.amount -= 1 }
      await orders.update { $0.entries.append("book") }
      return await wallet.update { ledger -> Int in
        ledger.amount -= 30
        return ledger.amount
      }
    }
    #expect(total == 70)
    #expect(inventory.state.amount == 9)
    #expect(orders.state.entries == ["book"])
    #expect(checkout.state.entries == ["book"])
  }

  @Test func clientsTheBodyDidNotChangeAreLeftAlone() async {
    let neverConsistent: () async -> Bool = { false }
    let error = await #expect(throws: TransactionError.self) {
      try await root.transaction(over: [inventory, orders, wallet], checking: neverConsistent) {
        await wallet.update { $0.amount -= 1 }
      }
    }
    #expect(error?.restored == ["Wallet"])
    #expect([inventory.cell.version, orders.cell.version, wallet.cell.version] == [0, 0, 2])
  }

  @Test func anyContextCanRunATransactionOverExplicitClients() async {
    await #expect(throws: PaymentDeclined.self) {
      try await root.transaction(over: [inventory, wallet]) {
        await inventory.update { $0.amount = 0 }
        await wallet.update { $0.amount = 0 }
        throw PaymentDeclined()
      }
    }
    #expect(inventory.state.amount == 10)
    #expect(wallet.state.amount == 100)
  }

  @Test func clientsAndContextsAreFreedAfterARollback() async {
    let lifetimes = LifetimeTracker()
    do {
      let first = lifetimes.track(LedgerClient(name: "First"))
      let second = lifetimes.track(LedgerClient(name: "Second"))
      let context = lifetimes.track(
        ClientContext(client: first, supporting: [second], named: "Both", in: root))
      await #expect(throws: PaymentDeclined.self) {
        try await context.transaction {
          await first.update { $0.amount = 1 }
          await second.update { $0.amount = 2 }
          throw PaymentDeclined()
        }
      }
    }
    #expect(lifetimes.survivors.isEmpty)
  }
}
