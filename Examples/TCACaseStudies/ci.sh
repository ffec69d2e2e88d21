#!/usr/bin/env bash
# CI for the TCA case studies (Examples/TCACaseStudies): four of The Composable
# Architecture's examples written in Weft, outside the Weft package. Run from anywhere:
#   bash Examples/TCACaseStudies/ci.sh
# Builds the example (debug, with tests; any compiler warning in the example fails the run),
# runs its tests (TCA's, ported test for test), and runs every flow in Flows/ with the debug
# casestudies-sim, each once and then twice more compared job by job (--check-determinism).
# No release build and no gate: the example gates no counts, and debug keeps CI quick.
# Everything is built in Examples/TCACaseStudies/.build, apart from the root package's .build.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
example="$root/Examples/TCACaseStudies"
scratch="$example/.build"
swiftpm=(--package-path "$example" --scratch-path "$scratch")

step() { printf '\n== tca case studies: %s == (%s)\n' "$*" "$(date +%H:%M:%S)"; }

step "build, debug, with tests (warnings in the example are errors)"
log="$scratch/ci-build.log"
mkdir -p "$scratch"
swift build "${swiftpm[@]}" --build-tests 2>&1 | tee "$log"
if grep -E "^$example/(Sources|Tests)/.*: warning: " "$log" | sort -u | grep .; then
  echo "error: the TCA case studies have warnings (listed above); they build warning-free"
  exit 1
fi

step "tests"
swift test "${swiftpm[@]}" --skip-build

sim="$(swift build "${swiftpm[@]}" --show-bin-path)/casestudies-sim"
cd "$example"
step "flows"
"$sim" check Flows/*.flow
for flow in Flows/*.flow; do
  echo "-- $flow"
  "$sim" "$flow" --no-progress >"$scratch/ci-flow.log" 2>&1 || {
    cat "$scratch/ci-flow.log"
    echo "error: $flow failed"
    exit 1
  }
  grep -E '^result: ' "$scratch/ci-flow.log"
done

step "determinism check (each flow twice, compared job by job)"
for flow in Flows/*.flow; do "$sim" "$flow" --check-determinism; done
