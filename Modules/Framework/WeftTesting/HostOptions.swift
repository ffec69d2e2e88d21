import Testing

/// `DeterministicTestHost`'s command line: what Swift Testing is told, and the schedule.
///
/// - Note: Isolation: a `Sendable` value.
/// - Complexity: O(a) to parse, a = arguments.
struct HostOptions: Sendable {
  /// A refused command line.
  struct Failure: Error {
    let message: String
  }

  static let usage = """
    usage: HOST [--filter NAME]... [--skip NAME]... [--parallel] [--verbose]
                [--xunit-output PATH] [--schedule-seed S]
    """

  /// What Swift Testing runs (serial unless `--parallel`).
  var testing = __CommandLineArguments_v0()
  /// The runtime's schedule seed (`nil`: arrival order).
  var scheduleSeed: UInt64?

  static func parse(_ arguments: [String]) -> Result<HostOptions, Failure> {
    var options = HostOptions()
    options.testing.parallel = false
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      let (name, inline) = split(argument)
      func value() -> String? { inline ?? remaining.popFirst() }
      switch name {
      case "--parallel": options.testing.parallel = true
      case "--verbose": options.testing.verbose = true
      case "--filter", "--skip", "--xunit-output", "--schedule-seed":
        guard let value = value() else {
          return .failure(Failure(message: "\(name) needs a value"))
        }
        switch name {
        case "--filter": options.testing.filter = (options.testing.filter ?? []) + [value]
        case "--skip": options.testing.skip = (options.testing.skip ?? []) + [value]
        case "--xunit-output": options.testing.xunitOutput = value
        default:
          guard let seed = UInt64(value) else {
            return .failure(Failure(message: "--schedule-seed: '\(value)' is not a number"))
          }
          options.scheduleSeed = seed
        }
      default:
        return .failure(Failure(message: "unknown argument '\(argument)'"))
      }
    }
    return .success(options)
  }

  /// `--name=value` as (`--name`, `value`); anything else as (itself, nil).
  private static func split(_ argument: String) -> (String, String?) {
    guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else {
      return (argument, nil)
    }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }
}
