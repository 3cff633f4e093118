#!/usr/bin/env bash
# make-book.sh: cuts the built-in opening book (books/nine-eg0-nc0.book,
# embedded by src/tablebase/book.rs) from the standard game's solution.
#
#   scripts/make-book.sh [TABLE_DIR]      # default $MORRIS_TB_DIR or ~/.cache/morris/tb
#
# The tables must hold the whole standard game under EndgameMoves=0
# NoCaptureMoves=0 (about 28 GB with distances; 4-5 CPU-hours):
#   morris tb generate --phase all --option EndgameMoves=0 --option NoCaptureMoves=0
# The book is every position within the first PLIES plies (default 9:
# 32 sectors, 5.9 MB). Rebuild the binary afterwards (cargo build --release).
# Settings (environment variables):
#   MORRIS  the binary that reads the tables (default: builds target/release/morris)
#   PLIES   plies from the start (default 9)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-${MORRIS_TB_DIR:-$HOME/.cache/morris/tb}}
plies=${PLIES:-9}
if [[ -z ${MORRIS:-} ]]; then
    (cd "$root" && cargo build --release --quiet)
    MORRIS=$root/target/release/morris
fi
mkdir -p "$root/books"
"$MORRIS" tb book --plies "$plies" --dir "$dir" \
    --option EndgameMoves=0 --option NoCaptureMoves=0 \
    --out "$root/books/nine-eg0-nc0.book"
