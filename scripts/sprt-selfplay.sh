#!/usr/bin/env bash
# sprt-selfplay.sh: is the current build stronger than a saved older binary?
#
# Plays the current build ("new") against an older binary ("old") until the
# SPRT decides, then prints the summary; every game is appended to a record.
#
#   cp target/release/morris ~/morris-base      # once, before your change
#   scripts/sprt-selfplay.sh ~/morris-base      # after it
#   scripts/sprt-selfplay.sh ~/morris-base --variant twelve   # extra match options
#
# Settings (environment variables; copy the script and edit the defaults):
#   NEW          the binary under test (default: builds target/release/morris)
#   TC           time control, seconds+increment (10+0.1)
#   ELO0, ELO1   the SPRT hypotheses in Elo (0, 10)
#   ALPHA, BETA  the SPRT error rates (0.05, 0.05)
#   GAMES        most games before giving up undecided (20000)
#   CONCURRENCY  games at once (the number of cores)
#   HASH         Hash option of both engines, MiB (16)
#   OUT          the record file (sprt-<date>.pgn)
# Exit status: 0 when the test ends (accepted or undecided), non-zero on errors.
set -euo pipefail

if [[ $# -lt 1 || ! -x $1 ]]; then
    echo "usage: $0 OLD_BINARY [more morris match options]" >&2
    exit 2
fi
old=$1
shift
root=$(cd "$(dirname "$0")/.." && pwd)
if [[ -z ${NEW:-} ]]; then
    cargo build --release --quiet --manifest-path "$root/Cargo.toml"
    NEW=$root/target/release/morris
fi
out=${OUT:-sprt-$(date +%Y%m%d-%H%M%S).pgn}

"$NEW" match \
    --engine cmd="$NEW" name=new option.Hash="${HASH:-16}" \
    --engine cmd="$old" name=old option.Hash="${HASH:-16}" \
    --tc "${TC:-10+0.1}" \
    --games "${GAMES:-20000}" \
    --concurrency "${CONCURRENCY:-$(nproc)}" \
    --sprt elo0="${ELO0:-0}" elo1="${ELO1:-10}" alpha="${ALPHA:-0.05}" beta="${BETA:-0.05}" \
    --out "$out" \
    "$@"
echo "games recorded in $out" >&2
