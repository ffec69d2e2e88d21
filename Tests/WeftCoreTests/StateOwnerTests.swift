import Testing
import WeftCore

/// A plain class that owns a cell: the smallest `StateOwner` that is not a `Client`.
final class ProfileHolder: StateOwner {
  let cell = StateCell(Profile(name: "ada"), name: "ProfileHolder")
}

/// Code generic over `StateOwner` reads and observes any owner, a `Client` among them.
@Suite("StateOwner: one read and observe API for every owner")
struct StateOwnerTests {
  /// What a view model written once for every kind of owner would do.
  static func names(
    of owner: some StateOwner<Profile>, into seen: Locked<[String]>
  )
    -> StateSubscription
  {
    owner.observeSynchronously(\.name) { change in seen.withLock { $0.append(change.value) } }
  }

  @Test func aClientAndAPlainOwnerAreReadAndObservedAlike() async {
    let client = ProfileClient(Profile(name: "grace"))
    let holder = ProfileHolder()
    let seen = Locked<[String]>([])
    let tokens = [Self.names(of: client, into: seen), Self.names(of: holder, into: seen)]
    #expect(client.state.name == "grace")
    #expect(holder.state.name == "ada")
    await client.update { $0.name = "grace h." }
    holder.cell.update { $0.name = "ada l." }
    #expect(seen.withLock { $0 } == ["grace h.", "ada l."])
    #expect(holder.snapshot.version > 0)
    for token in tokens { token.cancel() }
  }
}
