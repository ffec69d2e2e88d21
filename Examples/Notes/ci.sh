#!/usr/bin/env bash
# CI for the Notes example (Examples/Notes): a Weft app outside the Weft package, with its own
# simulator. Run from the repository root (or anywhere):
#   bash Examples/Notes/ci.sh
# Builds the example (debug with tests, where any compiler warning in the example fails the
# run; then release), runs its tests, runs every flow in Examples/Notes/Flows with the release
# notes-sim, explores crud.flow's schedules in two merged shards, and runs its performance gate
# against Examples/Notes/Gates/thresholds.json.
# Everything is built in Examples/Notes/.build, apart from the root package's .build.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
example="$root/Examples/Notes"
scratch="$example/.build"
swiftpm=(--package-path "$example" --scratch-path "$scratch")

step() { printf '\n== notes: %s == (%s)\n' "$*" "$(date +%H:%M:%S)"; }

step "build, debug, with tests (warnings in the example are errors)"
log="$scratch/ci-build.log"
mkdir -p "$scratch"
swift build "${swiftpm[@]}" --build-tests 2>&1 | tee "$log"
if grep -E "^$example/(Sources|Tests)/.*: warning: " "$log" | sort -u | grep .; then
  echo "error: the Notes example has warnings (listed above); it builds warning-free"
  exit 1
fi

step "tests"
swift test "${swiftpm[@]}" --skip-build

step "build, release (notes-sim)"
swift build "${swiftpm[@]}" -c release --product notes-sim
sim="$scratch/release/notes-sim"

step "flows"
cd "$example"
for flow in Flows/*.flow; do
  echo "-- $flow"
  "$sim" "$flow" --no-progress >"$scratch/ci-flow.log" 2>&1 || {
    cat "$scratch/ci-flow.log"
    echo "error: $flow failed"
    exit 1
  }
  grep -E '^result: ' "$scratch/ci-flow.log"
done

step "identical counts, allocations included: 10 runs of every flow, the other core busy"
python3 "$root/.ci/check-identical-counts" --busy --allocations 10 "$sim" Flows/*.flow

step "explore: crud.flow under 100 schedules, two shards merged (every schedule passes)"
for shard in 1 2; do
  "$sim" explore Flows/crud.flow --schedules 100 --shard $shard/2 --json \
    >"$scratch/ci-explore-$shard.json"
done
"$sim" merge "$scratch"/ci-explore-[12].json | grep -E '^explore'

step "determinism check (each flow twice, compared job by job)"
for flow in Flows/*.flow; do "$sim" "$flow" --check-determinism; done

step "gate (Gates/thresholds.json)"
"$sim" gate
