// weft-hosted-tests: the suites of Tests/HostedSuites on the deterministic runtime.
//   weft-hosted-tests [--filter NAME]... [--skip NAME]... [--parallel] [--verbose]
import WeftTesting

DeterministicTestHost.main()
