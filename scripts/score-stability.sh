#!/usr/bin/env bash
# score-stability.sh: how much the engine's score of a placement position
# moves from one search depth to the next.
#
# For POSITIONS openings of the standard game (random legal placements from
# the start, 1 to 12 plies, the same for a given SEED), searches each to
# DEPTH and prints the mean absolute change of the reported score (multipv
# 1, centipawns) between consecutive depths from depth 2 on, and the mean
# change between depth DEPTH-1 and DEPTH alone. Mate scores are skipped.
#
#   scripts/score-stability.sh                # builds target/release/morris
#   MORRIS=~/morris-base scripts/score-stability.sh
#
# Settings (environment): MORRIS (the binary), DEPTH (12), POSITIONS (40),
# SEED (1).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
if [[ -z ${MORRIS:-} ]]; then
    cargo build --release --quiet --manifest-path "$root/Cargo.toml"
    MORRIS=$root/target/release/morris
fi
bin=$MORRIS
depth=${DEPTH:-12}
positions=${POSITIONS:-40}
RANDOM=${SEED:-1}

total=0
count=0
last_total=0
last_count=0
for ((p = 0; p < positions; p++)); do
    plies=$((1 + p % 12))
    moves=""
    for ((i = 0; i < plies; i++)); do
        list=$("$bin" perft 1 --divide --moves "$moves" 2>/dev/null)
        mapfile -t legal < <(grep -v '^Nodes' <<<"$list" | grep -v '^$' | cut -d: -f1)
        ((${#legal[@]} > 0)) || break
        moves="$moves ${legal[RANDOM % ${#legal[@]}]}"
    done
    out=$(printf 'setoption name Hash value 16\nposition startpos moves%s\ngo depth %d\n' \
        "$moves" "$depth" | "$bin" 2>/dev/null)
    read -r t c lt lc < <(awk -v D="$depth" '
        /^info depth / && / score cp / && (/ multipv 1 / || !/ multipv /) {
            for (i = 1; i <= NF; i++) {
                if ($i == "depth") d = $(i + 1)
                if ($i == "cp") s = $(i + 1)
            }
            score[d] = s
        }
        END {
            t = 0; c = 0; lt = 0; lc = 0
            for (d = 2; d <= D; d++) {
                if ((d in score) && ((d - 1) in score)) {
                    x = score[d] - score[d - 1]; if (x < 0) x = -x
                    t += x; c++
                    if (d == D) { lt += x; lc++ }
                }
            }
            print t, c, lt, lc
        }' <<<"$out")
    total=$((total + t))
    count=$((count + c))
    last_total=$((last_total + lt))
    last_count=$((last_count + lc))
done
awk -v t="$total" -v c="$count" -v lt="$last_total" -v lc="$last_count" -v n="$positions" -v d="$depth" 'BEGIN {
    printf "%d positions, depths 1-%d: mean |change| %.1f cp over %d steps; depth %d-1 to %d: %.1f cp\n",
        n, d, (c ? t / c : 0), c, d, d, (lc ? lt / lc : 0)
}'
