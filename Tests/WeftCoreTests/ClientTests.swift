import Testing

@testable import WeftCore

struct Profile: Sendable, Equatable {
  var name = ""
  var email = ""
  var visits = 0
  var tags: [String] = []
}

actor ProfileClient: Client {
  nonisolated let cell: StateCell<Profile>

  init(_ initial: Profile = Profile(), monitor: PerformanceMonitor = .shared) {
    cell = StateCell(initial, name: "ProfileClient", monitor: monitor)
  }
}

struct ProfileError: Error, Equatable {}

@Suite("Client transactions and snapshots")
struct ClientTests {
  @Test func updateCommitsManyFieldsAsOneVersion() async {
    let client = ProfileClient()
    let commits = Counter()
    let token = client.observeSynchronously(StateSelector(id: "all") { $0 }) { _ in
      commits.increment()
    }
    let result = await client.update { state -> Int in
      state.name = "Ada"
      state.email = "ada@example.com"
      state.visits += 3
      return state.visits
    }
    #expect(result == 3)
    #expect(client.snapshot.version == 1)
    #expect(client.state == Profile(name: "Ada", email: "ada@example.com", visits: 3))
    #expect(commits.value == 1)
    token.cancel()
  }

  @Test func throwingUpdateCommitsNothing() async {
    let client = ProfileClient()
    let calls = Counter()
    let token = client.observeSynchronously(\.name) { _ in calls.increment() }
    await #expect(throws: ProfileError.self) {
      try await client.update { state throws(ProfileError) in
        state.name = "half-written"
        throw ProfileError()
      }
    }
    #expect(client.snapshot.version == 0)
    #expect(client.state.name == "")
    #expect(calls.value == 0)
    token.cancel()
  }

  @Test func snapshotIsReadableSynchronouslyFromTheMainActor() async {
    let client = ProfileClient(Profile(name: "start"))
    await client.update { $0.name = "next" }
    let read = await MainActor.run { client.snapshot }
    #expect(read.version == 1)
    #expect(read.state.name == "next")
  }

  @Test func restoreCommitsTheOldStateAsANewVersion() async {
    let client = ProfileClient()
    await client.update { $0.name = "first" }
    let saved = client.snapshot
    await client.update { $0.name = "second" }
    let seen = Recorder<String>()
    let token = client.observeSynchronously(\.name) { seen.append($0.value) }
    await client.restore(saved)
    #expect(client.state.name == "first")
    #expect(client.snapshot.version == 3)
    #expect(seen.values == ["first"])
    token.cancel()
  }

  @Test func concurrentUpdatersProduceExactFinalState() async {
    let client = ProfileClient()
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<50 {
        group.addTask {
          for _ in 0..<100 { await client.update { $0.visits += 1 } }
        }
      }
    }
    #expect(client.state.visits == 5_000)
    #expect(client.snapshot.version == 5_000)
  }
}

@Suite("Commit misuse")
struct CommitMisuseTests {
  @Test func commitInsideAnUpdateTraps() async {
    await #expect(processExitsWith: .failure) {
      let cell = StateCell(Profile(), name: "Nested")
      cell.update { state in
        state.visits = 1
        cell.commit(Profile(name: "sneaky"))
      }
    }
  }
}
