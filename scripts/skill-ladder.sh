#!/usr/bin/env bash
# skill-ladder.sh: the Elo ladder of the engine's Skill levels, from a
# beginner-like player (scripts/beginner.sh) to full strength.
#
# Each step is a match of two neighbours (GAMES games on GAMES/2 random
# four-ply openings, colours swapped, NODES nodes a move so that a busy
# machine gives the same games): Skill 0 against Skill STEP, and so on up to Skill
# 20; then the beginner against Skill 0, and each fixed depth of DEPTHS
# against the level whose deepest search it equals (Skill 2*(depth-2):
# a level below 20 searches at most 2 + Skill/2 plies, then picks among
# its best lines with noise). Prints one Markdown table: each match's
# result and Elo with its 95% interval, and the rating it gives its new
# entry (Skill 0 at 1000, as UCI_Elo counts) with the interval of the sum.
#
#   scripts/skill-ladder.sh                 # builds target/release/morris
#   GAMES=100 STEP=2 scripts/skill-ladder.sh
#
# Settings (environment): MORRIS (the binary), GAMES (60), NODES (200000),
# STEP (4), DEPTHS ("2 4 6 8"), SEED (1: the openings), CONCURRENCY
# (nproc), OUT (a record file, skill-ladder-<date>.pgn). Tables are not built in the background
# (MORRIS_TB_AUTO=0) so that every game gets the same machine.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
if [[ -z ${MORRIS:-} ]]; then
    cargo build --release --quiet --manifest-path "$root/Cargo.toml"
    MORRIS=$root/target/release/morris
fi
export MORRIS MORRIS_TB_AUTO=0
games=${GAMES:-60}
nodes=${NODES:-200000}
step=${STEP:-4}
depths=${DEPTHS-2 4 6 8}
out=${OUT:-skill-ladder-$(date +%Y%m%d-%H%M%S).pgn}

# The openings: four stones placed at random (no mill can close before the
# fifth), one line each. The engines play repeatably, so every game of a
# pairing needs an opening of its own to count.
openings=$(mktemp)
trap 'rm -f "$openings"' EXIT
RANDOM=${SEED:-1}
points=(a1 a4 a7 b2 b4 b6 c3 c4 c5 d1 d2 d3 d5 d6 d7 e3 e4 e5 f2 f4 f6 g1 g4 g7)
for ((i = 0; i < (games + 1) / 2; i++)); do
    free=("${points[@]}")
    line=()
    for ((p = 0; p < 4; p++)); do
        k=$((RANDOM % ${#free[@]}))
        line+=("${free[k]}")
        free=("${free[@]:0:k}" "${free[@]:k+1}")
    done
    echo "${line[*]}"
done >"$openings"

# engine NAME: the --engine arguments of a ladder entry.
engine() {
    case $1 in
    beginner) echo "cmd=$root/scripts/beginner.sh name=beginner" ;;
    skill*) echo "cmd=$MORRIS name=$1 option.Skill=${1#skill}" ;;
    depth*) echo "cmd=$MORRIS name=$1 depth=${1#depth}" ;;
    esac
}

# match A B: one line "A B wins draws losses elo low high" (A's view;
# an infinite or unbounded Elo is "null").
match() {
    # shellcheck disable=SC2046 # the settings are words on purpose
    "$MORRIS" match --engine $(engine "$1") --engine $(engine "$2") \
        --nodes "$nodes" --games "$games" --openings "$openings" \
        --concurrency "${CONCURRENCY:-$(nproc)}" --out "$out" --json 2>/dev/null |
        jq -r --arg a "$1" --arg b "$2" \
            '.pairs[0] | [$a, $b, .wins, .draws, .losses, .elo, .elo_low, .elo_high] | map(tostring) | join(" ")'
}

# Each match names the entry it rates first and a rated one second: up
# the ladder from Skill 0, then the beginner and the depths.
lines=()
prev=skill0
for ((s = step; s <= 20; s += step)); do
    lines+=("$(match "skill$s" "$prev")")
    prev=skill$s
done
((20 % step == 0)) || lines+=("$(match skill20 "$prev")")
lines+=("$(match beginner skill0)")
for d in $depths; do
    lines+=("$(match "depth$d" "skill$((2 * (d - 2)))")")
done

# Each line rates its first entry from its second (Skill 0 at 1000, the
# UCI_Elo scale's zero); the half-widths of the 95% intervals add in
# quadrature along the chain.
printf '%s\n' "${lines[@]}" | awk '
BEGIN {
    rating["skill0"] = 1000; var["skill0"] = 0
    print "| match | result | Elo of the first (95%) | rating of the new entry |"
    print "|---|---|---|---|"
}
{
    first = $1; second = $2; e = $6; lo = $7; hi = $8
    elo = (e == "null") ? ($3 > $5 ? "+inf" : "-inf") : sprintf("%+.0f", e)
    low = (lo == "null") ? "-inf" : sprintf("%+.0f", lo)
    high = (hi == "null") ? "+inf" : sprintf("%+.0f", hi)
    printf "| %s vs %s | +%d =%d -%d | %s (%s..%s) |", first, second, $3, $4, $5, elo, low, high
    if (e == "null" || lo == "null" || hi == "null" || !(second in rating)) { print " n/a |"; next }
    half = (hi - lo) / 2
    rating[first] = rating[second] + e
    var[first] = var[second] + half * half
    printf " %s %.0f +- %.0f |\n", first, rating[first], sqrt(var[first])
}'
echo "games: $out"
