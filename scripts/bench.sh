#!/usr/bin/env bash
# bench.sh: print the bench signature of a build (its node count on the
# fixed bench positions), the number to quote in a commit that changes the
# search, and to compare between builds: equal signatures, same search.
#
#   scripts/bench.sh                    # the current build
#   MORRIS=~/morris-base scripts/bench.sh
#
# `morris bench` prints its report; the last line holds the node count,
# which is all this script prints (with the speed on stderr).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
if [[ -z ${MORRIS:-} ]]; then
    cargo build --release --quiet --manifest-path "$root/Cargo.toml"
    MORRIS=$root/target/release/morris
fi
report=$("$MORRIS" bench "$@")
last=$(tail -n 1 <<<"$report")
nodes=$(grep -oE '[0-9]+' <<<"$last" | head -n 1)
if [[ -z $nodes ]]; then
    echo "no node count in the last line of 'morris bench': $last" >&2
    exit 1
fi
grep -iE 'nps|nodes/s|speed' <<<"$report" >&2 || true
echo "bench: $nodes"
