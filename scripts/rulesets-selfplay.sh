#!/usr/bin/env bash
# rulesets-selfplay.sh: does the engine play every rule set sensibly?
#
# For each named rule set, the engine at depth DEEP plays a copy of itself
# at depth SHALLOW from ten two-ply openings, each opening with both
# colours; prints the rules refereed and the deeper engine's result
# (+wins =draws -losses) per rule set; faults (illegal moves, crashes,
# hangs) count as losses of the engine at fault and are logged.
#
#   scripts/rulesets-selfplay.sh                 # every app rule set
#   scripts/rulesets-selfplay.sh dooz zhiqi      # just these
#
# Settings (environment variables; copy the script and edit the defaults):
#   MORRIS       the binary (default: builds target/release/morris)
#   DEEP         the stronger engine's depth (5)
#   SHALLOW      the weaker engine's depth (1)
#   CONCURRENCY  games at once (the number of cores)
# Exit status: non-zero when a match could not be played.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
if [[ -z ${MORRIS:-} ]]; then
    cargo build --release --quiet --manifest-path "$root/Cargo.toml"
    MORRIS=$root/target/release/morris
fi
sets=("$@")
if [[ ${#sets[@]} -eq 0 ]]; then
    sets=(nine-app twelve-app morabaraba-app lasker-app dooz onetime chamgonu
          zhiqi chengsanqi dasanqi mulmulan nerenchi elfilja)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Two placements on points that close no mill: legal under every rule set.
printf '%s\n' "a1 d7" "b2 f6" "c3 e5" "d1 g4" "a4 d5" "b4 f4" "g1 d2" "e3 c5" \
    "a7 g7" "d6 e4" > "$work/openings.txt"

for set in "${sets[@]}"; do
    "$MORRIS" match --variant "$set" \
        --engine cmd="$MORRIS" name=deep depth="${DEEP:-5}" \
        --engine cmd="$MORRIS" name=shallow depth="${SHALLOW:-1}" \
        --openings "$work/openings.txt" --games 2 --rounds 10 \
        --concurrency "${CONCURRENCY:-$(nproc)}" \
        --ratinginterval 0 2> "$work/$set.log" | grep -E '^(Rules|deep)'
done
