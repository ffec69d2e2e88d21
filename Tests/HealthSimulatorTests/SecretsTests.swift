import Foundation
import HealthSimulator
import SimulatorFlow
import SimulatorKit
import TestProcesses
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 43: the password a flow types and the token the server issues appear in none of
/// weft-sim's outputs, the token is in the secure store and not in the database, and every
/// file of a `--state-dir` run is owner-only under umask 022. Runs the real debug `weft-sim`.
@Suite("Secrets at rest and in weft-sim's outputs", .serialized)
struct SecretsTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let binary = root.appendingPathComponent(".build/debug/weft-sim")
  static let password = "correct-horse"
  /// The simulated backend's first token (`token-<n>`, counted from 1 per backend).
  static let token = "token-1"

  static func mode(_ path: String) -> UInt32? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return UInt32(status.st_mode) & 0o777
  }

  /// Runs weft-sim with `arguments` under `umask 022`, from the package root.
  static func weftSim(_ arguments: [String]) async throws -> ChildProcess.Result {
    let quoted = arguments.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    return try await ChildProcess.run(
      URL(fileURLWithPath: "/bin/sh"),
      ["-c", "umask 022 && exec '\(binary.path)' " + quoted.joined(separator: " ")], in: root)
  }

  static func scratch() throws -> URL {
    let base = FileManager.default.temporaryDirectory
      .appendingPathComponent("weft-secrets-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
    return base
  }

  @Test func noOutputOfTheLoginFlowHoldsThePasswordOrTheToken() async throws {
    guard FileManager.default.isExecutableFile(atPath: Self.binary.path) else {
      Issue.record("\(Self.binary.path) is missing: run `swift build --build-tests` first")
      return
    }
    let base = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: base) }  // try?: the test's scratch
    let html = base.appendingPathComponent("report.html").path
    let trace = base.appendingPathComponent("run.trace").path
    let flow = "Flows/login-to-sync.flow"
    var outputs: [(String, String)] = []
    let text = try await Self.weftSim([flow, "--explain", "--no-progress"])
    #expect(text.status == 0, "\(text.error)")
    outputs += [("text", text.standard), ("text stderr", text.error)]
    let json = try await Self.weftSim(
      [flow, "--json", "--html", html, "--trace", trace, "--no-progress"])
    #expect(json.status == 0, "\(json.error)")
    outputs += [("json", json.standard), ("json stderr", json.error)]
    outputs.append(("html", try String(contentsOfFile: html, encoding: .utf8)))
    outputs.append(("trace", try String(contentsOfFile: trace, encoding: .utf8)))
    for (name, output) in outputs {
      #expect(!output.contains(Self.password), "\(name) shows the password")
      #expect(!output.contains(Self.token), "\(name) shows the token")
    }
    // The login step is there, its password masked character for character.
    #expect(json.standard.contains("password=*************"))
    #expect(outputs.last!.1.contains("login.password=[redacted]"))
  }

  @Test func aFailingLoginFlowShowsNeitherInItsErrors() async throws {
    guard FileManager.default.isExecutableFile(atPath: Self.binary.path) else {
      Issue.record("\(Self.binary.path) is missing: run `swift build --build-tests` first")
      return
    }
    let base = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: base) }  // try?: the test's scratch
    let flow = base.appendingPathComponent("fails.flow")
    // A typo after the secret on its line (a flow error), then, in a flow that parses, a
    // failed expectation on the password field and an error in the login step.
    try """
    let secret = "\(Self.password)"
    login email=ada@example.com password=$secret emial=x
    """.write(to: flow, atomically: true, encoding: .utf8)
    let invalid = try await Self.weftSim([flow.path, "--no-progress"])
    #expect(invalid.status != 0)
    #expect(invalid.error.contains("emial"), "\(invalid.error)")
    try """
    login.set email=ada@example.com password=\(Self.password)
    expect login.password == ""
    login email=ada@example.com password=\(Self.password)
    wait auth.state == authenticated timeout=5s
    network offline
    session.expire
    expect auth.state == authenticated
    """.write(to: flow, atomically: true, encoding: .utf8)
    let failed = try await Self.weftSim([flow.path, "--json", "--no-progress"])
    #expect(failed.status != 0)
    #expect(failed.standard.contains("[redacted]"), "\(failed.standard)")
    for output in [invalid.standard, invalid.error, failed.standard, failed.error] {
      #expect(!output.contains(Self.password))
      #expect(!output.contains(Self.token))
    }
  }

  @Test func aStateDirRunKeepsTheTokenOutOfTheDatabaseAndEveryFileOwnerOnly() async throws {
    guard FileManager.default.isExecutableFile(atPath: Self.binary.path) else {
      Issue.record("\(Self.binary.path) is missing: run `swift build --build-tests` first")
      return
    }
    let base = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: base) }  // try?: the test's scratch
    let state = base.appendingPathComponent("state").path
    let flow = base.appendingPathComponent("login.flow")
    try """
    seed 42
    login email=ada@example.com password=\(Self.password)
    wait auth.state == authenticated timeout=5s
    """.write(to: flow, atomically: true, encoding: .utf8)
    let first = try await Self.weftSim([flow.path, "--state-dir", state, "--no-progress"])
    #expect(first.status == 0, "\(first.error)")

    let database = state + "/app.sqlite"
    let secrets = state + "/secure-storage/secrets"
    // A clean exit checkpoints the WAL into the file and removes the -wal and -shm; any
    // database file there is owner-only. (The simulator's own files, `launches` and the
    // simulated backend's `backend.json`, are inside the owner-only folder.)
    #expect(Self.mode(database) == 0o600)
    #expect(Self.mode(secrets) == 0o600)
    for name in try FileManager.default.contentsOfDirectory(atPath: state)
    where name.hasPrefix("app.sqlite") {
      #expect(Self.mode(state + "/" + name) == 0o600, "\(name)")
    }
    #expect(Self.mode(state + "/secure-storage") == 0o700)
    #expect(Self.mode(state) == 0o700)
    // The token is in the secure store (hex-encoded), in neither the database nor its WAL,
    // which do hold the signed-in user.
    let hex = Self.token.utf8.map { String(format: "%02x", $0) }.joined()
    #expect(try String(contentsOfFile: secrets, encoding: .utf8).contains(hex))
    let stored = try [database, database + "-wal"].filter {
      FileManager.default.fileExists(atPath: $0)
    }.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
    #expect(stored.contains { $0.range(of: Data("ada@example.com".utf8)) != nil })
    for bytes in stored { #expect(bytes.range(of: Data(Self.token.utf8)) == nil) }

    // The next process restores the session from the store.
    try """
    seed 42
    expect auth.state == authenticated
    expect app.user == "ada@example.com"
    """.write(to: flow, atomically: true, encoding: .utf8)
    let second = try await Self.weftSim([flow.path, "--state-dir", state, "--no-progress"])
    #expect(second.status == 0, "\(second.standard)\(second.error)")
  }

  @Test func aSecretArgumentIsMaskedInStepsAndErrorsButReachesTheCommand() throws {
    let options = Flow.ParseOptions(commands: HealthSimulation.plugin.catalog)
    let flow = try Flow.parse(
      source: """
        let pw = "\(Self.password)"
        login email=ada@example.com password=$pw
        login.set password=\(Self.password) ; logout
        """, options: options)
    #expect(flow.steps.allSatisfy { !$0.sourceLine.contains(Self.password) })
    #expect(flow.steps[1].sourceLine == "login.set password=************* ; logout")
    #expect(flow.steps[2].location.column == 36)  // `logout`, where the file has it
    guard case .app(let login) = flow.steps[0].kind else {
      Issue.record("expected the login step, got \(flow.steps[0].kind)")
      return
    }
    #expect(login.arguments.text("password") == Self.password)
    #expect(
      HealthSimulation.plugin.catalog.secretArguments(of: "login") == ["password"])
    // A statement the parser rejects, and one whose command it does not know: masked too.
    for (source, line) in [
      (
        "login password=\(Self.password) emial=x",
        "login password=************* emial=x"
      ),
      ("logn password=\(Self.password)", "logn password=*************"),
    ] {
      do {
        _ = try Flow.parse(source: source, options: options)
        Issue.record("expected a flow error for \(source)")
      } catch {
        #expect(error.sourceLine == line)
        #expect(!error.description.contains(Self.password), "\(error.description)")
      }
    }
    // An error after the secret on its line: masked, the caret still under the typo.
    #expect(throws: FlowError.self) {
      try Flow.parse(source: "login email=$nope password=\(Self.password)", options: options)
    }
    do {
      _ = try Flow.parse(
        source: "login password=\(Self.password) email=$nope", options: options)
      Issue.record("expected a flow error")
    } catch {
      #expect(!error.description.contains(Self.password), "\(error.description)")
      #expect(error.description.contains("login password=************* email=$nope"))
      #expect(error.location.column == 36)
    }
  }
}
