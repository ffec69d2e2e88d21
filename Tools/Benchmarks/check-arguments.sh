#!/usr/bin/env bash
# weft-bench's command-line manners (issue 19): no arguments is a usage error on standard
# error with exit 2; --version prints Weft.version; --help and every benchmark's --help print
# to standard output with exit 0; an unknown benchmark or option exits 2.
#   bash Tools/Benchmarks/check-arguments.sh [path/to/weft-bench]
# (default: Tools/Benchmarks/.build/release/weft-bench, built by the benchmark step)
set -uo pipefail
cd "$(dirname "$0")/../.."
bench=${1:-Tools/Benchmarks/.build/release/weft-bench}
[ -x "$bench" ] || { echo "error: $bench is not built; run: swift build -c release --package-path Tools/Benchmarks"; exit 1; }
version=$(sed -n 's/.*public static let version = "\(.*\)".*/\1/p' Modules/Framework/WeftCore/Version.swift)
failed=0
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

# expect STATUS STREAM-THAT-HAS-TEXT PATTERN -- ARGUMENTS...
expect() {
  local status=$1 stream=$2 pattern=$3
  shift 4
  "$bench" "$@" >"$out" 2>"$err"
  local got=$?
  local other=$err
  local file=$out
  if [ "$stream" = stderr ]; then file=$err other=$out; fi
  if [ "$got" != "$status" ] || ! grep -qE -- "$pattern" "$file" || [ -s "$other" ]; then
    echo "FAIL: weft-bench $* -> exit $got (want $status; want /$pattern/ on $stream only)"
    sed 's/^/  stdout: /' "$out"
    sed 's/^/  stderr: /' "$err"
    failed=1
  else
    echo "ok:   weft-bench $* -> exit $got"
  fi
}

expect 2 stderr '^USAGE: weft-bench <benchmark>' --
expect 0 stdout "^${version//./\\.}\$" -- --version
expect 0 stdout '^OVERVIEW: weft-bench' -- --help
expect 0 stdout '^OVERVIEW: weft-bench' -- -h
expect 0 stdout '^OVERVIEW: weft-bench' -- help
for benchmark in fanout fanout-small persistence websocket foreach observation latency memory-floor all profile-commit profile-idle profile-foreach profile-main websocket-echo-server help; do
  expect 0 stdout "^USAGE: weft-bench ($benchmark|help)" -- "$benchmark" --help
  expect 0 stdout "^USAGE: weft-bench ($benchmark|help)" -- help "$benchmark"
done
expect 2 stderr "unknown benchmark 'fanuot'" -- fanuot
expect 2 stderr "unknown option '--quik'" -- fanout --quik
exit $failed
