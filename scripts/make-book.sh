#!/usr/bin/env bash
# make-book.sh: cuts the built-in opening books (books/*.book, embedded by
# crates/tablebase/src/probe/book.rs) from the standard game's solutions.
#
#   scripts/make-book.sh [TABLE_DIR]      # default $MORRIS_TB_DIR or ~/.cache/morris/tb
#
# Each book is every position within the first PLIES plies (default 9:
# 32 sectors, 5.9 MB) of the standard game, cut from the whole solution
# under its rules; the tables must be there (about 35 GB with distances,
# 90 minutes on 2 cores each):
#   nine          the `nine` preset as it is (EndgameMoves 10, NoCaptureMoves 100):
#                   morris tb generate --phase all
#   nine-eg0-nc0  EndgameMoves=0 NoCaptureMoves=0, the published solutions' rules:
#                   morris tb generate --phase all --option EndgameMoves=0 --option NoCaptureMoves=0
# Rebuild the binary afterwards (cargo build --release).
# Settings (environment variables):
#   MORRIS  the binary that reads the tables (default: builds target/release/morris)
#   PLIES   plies from the start (default 9)
#   BOOKS   the books to cut (default: "nine nine-eg0-nc0")
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-${MORRIS_TB_DIR:-$HOME/.cache/morris/tb}}
plies=${PLIES:-9}
if [[ -z ${MORRIS:-} ]]; then
    (cd "$root" && cargo build --release --quiet)
    MORRIS=$root/target/release/morris
fi
mkdir -p "$root/books"
for book in ${BOOKS:-nine nine-eg0-nc0}; do
    case $book in
        nine) options=() ;;
        nine-eg0-nc0) options=(--option EndgameMoves=0 --option NoCaptureMoves=0) ;;
        *) echo "make-book.sh: no book named $book (nine, nine-eg0-nc0)" >&2; exit 2 ;;
    esac
    "$MORRIS" tb book --plies "$plies" --dir "$dir" "${options[@]}" \
        --out "$root/books/$book.book"
done
