#!/usr/bin/env bash
# analyze-record.sh: analyse every move of a game record into a JSON file.
#
# Writes one JSON object per position (JSON lines: the move played, the best
# move, its score and PV, the score loss of the move played and its mark,
# "?" mistake or "??" blunder), then prints how many moves were marked.
#
#   scripts/analyze-record.sh games.pgn                 # -> games.analysis.jsonl
#   scripts/analyze-record.sh games.pgn out.jsonl --multipv 3
#
# Settings (environment variables):
#   MORRIS    the binary (default: builds target/release/morris)
#   DEPTH     search depth per position (10); MOVETIME=MS searches by time instead
#   HASH      transposition table, MiB (64)
#   THREADS   search threads (1)
set -euo pipefail

if [[ $# -lt 1 || ! -r $1 ]]; then
    echo "usage: $0 RECORD [OUTPUT.jsonl] [more morris analyze options]" >&2
    exit 2
fi
record=$1
shift
if [[ $# -gt 0 && $1 != -* ]]; then
    out=$1
    shift
else
    out=${record%.*}.analysis.jsonl
fi
root=$(cd "$(dirname "$0")/.." && pwd)
if [[ -z ${MORRIS:-} ]]; then
    cargo build --release --quiet --manifest-path "$root/Cargo.toml"
    MORRIS=$root/target/release/morris
fi
if [[ -n ${MOVETIME:-} ]]; then
    limit=(--movetime "$MOVETIME")
else
    limit=(--depth "${DEPTH:-10}")
fi

"$MORRIS" analyze "$record" --json "${limit[@]}" \
    --hash "${HASH:-64}" --threads "${THREADS:-1}" "$@" >"$out"
# One object a position, then one a game with its summary.
positions=$(grep -vc '"summary"' "$out" || true)
blunders=$(grep -c '"mark":"??"' "$out" || true)
mistakes=$(grep -c '"mark":"?"' "$out" || true)
only=$(grep -c '"mark":"!"' "$out" || true)
echo "$out: $positions positions, $mistakes mistakes (?), $blunders blunders (??), $only only moves (!)"
