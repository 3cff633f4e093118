#!/usr/bin/env bash
# blind-spots.sh: the shipped engine (built-in book, its own small tables,
# search) on each position of the blind-spot suite at a fixed node
# budget: whether its move keeps the value, and how long it took.
#
#   scripts/blind-spots.sh                          # docs/perfect-match/blind-spots.txt
#   NODES=20000000 SET=held-out scripts/blind-spots.sh
#
# Prints a line a position, then "kept N of M" for each set (tune,
# held-out) and for all, with the time the searches took: a measure for
# search changes, not a test to tune to (report both sets).
#
# Settings (environment):
#   SUITE   the suite file (its header says the format)
#           [docs/perfect-match/blind-spots.txt]
#   NODES   the node budget of each search [2000000]
#   SET     tune, held-out or all [all]
#   OPTIONS more engine options, Name=Value separated by spaces
#           (BookPath=<empty>: the search alone, for a suite of book
#           positions) []
#   OUT     the folder of the engine's small tables, built first for each
#           rule set so that no search waits for them (MORRIS_TB_AUTO
#           stones, 5) [blind-spots]
#   MORRIS  the binary [builds target/release/morris]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
if [[ -z ${MORRIS:-} ]]; then
    cargo build --release --quiet --manifest-path "$root/Cargo.toml"
    MORRIS=$root/target/release/morris
fi
suite=${SUITE:-$root/docs/perfect-match/blind-spots.txt}
nodes=${NODES:-2000000}
only=${SET:-all}
out=${OUT:-blind-spots}
auto=${MORRIS_TB_AUTO:-5}
case $only in
all | tune | held-out) ;;
*)
    echo "blind-spots.sh: SET is tune, held-out or all, not '$only'" >&2
    exit 2
    ;;
esac
mkdir -p "$out"

# The rule options (Name=Value lines) of a suite line's rules field.
options() {
    local fields
    IFS=, read -r -a fields <<<"$1"
    case ${fields[0]} in
    published) printf '%s\n' EndgameMoves=0 NoCaptureMoves=0 ;;
    default) ;;
    *)
        echo "blind-spots.sh: rules '$1' start with neither published nor default" >&2
        return 1
        ;;
    esac
    if ((${#fields[@]} > 1)); then
        printf '%s\n' "${fields[@]:1}"
    fi
}

seconds() { awk -v ms="$1" 'BEGIN { printf "%.1f", ms / 1000 }'; }

declare -A kept total spent
lineno=0
while IFS=$'\t' read -r set rules fen keeping found; do
    lineno=$((lineno + 1))
    [[ -z $set || $set == \#* ]] && continue
    if [[ $set != tune && $set != held-out || -z $fen || -z $keeping ]]; then
        echo "blind-spots.sh: $suite line $lineno: expected set, rules, position, moves, found" >&2
        exit 1
    fi
    [[ $only == all || $only == "$set" ]] || continue
    mapfile -t opts < <(options "$rules")
    # The engine's own small tables of these rules, in a folder of their own
    # (the solution, wherever it is, must not be seen).
    tables=$out/tb-${rules//[^A-Za-z0-9=-]/_}
    if [[ ! -e $tables.done ]] && ((auto >= 3)); then
        generate=()
        for o in "${opts[@]}"; do generate+=(--option "$o"); done
        "$MORRIS" tb generate --max-stones "$auto" --dir "$tables" "${generate[@]}" \
            >"$tables.log" 2>&1
        touch "$tables.done"
    fi
    setoptions=$(for o in "${opts[@]}" ${OPTIONS:-}; do
        printf 'setoption name %s value %s\n' "${o%%=*}" "${o#*=}"
    done)
    start=$(date +%s%N)
    reply=$(printf 'setoption name TablebasePath value %s\n%s\nisready\nposition fen %s\ngo nodes %s\n' \
        "$tables" "$setoptions" "$fen" "$nodes" |
        "$MORRIS" 2>&1 | sed -n '/^bestmove /{p;q}')
    ms=$((($(date +%s%N) - start) / 1000000))
    played=${reply#bestmove }
    played=${played%% *}
    if [[ " $keeping " == *" $played "* ]]; then
        verdict=kept
        kept[$set]=$((${kept[$set]:-0} + 1))
    else
        verdict=lost
    fi
    total[$set]=$((${total[$set]:-0} + 1))
    spent[$set]=$((${spent[$set]:-0} + ms))
    printf '%s  %-8s %-9s %s: %s (keeping: %s), %d ms\n' "$verdict" "$set" "$rules" "$fen" \
        "${played:-(none)}" "$keeping" "$ms"
done <"$suite"

echo
all_kept=0 all_total=0 all_spent=0
for set in tune held-out; do
    [[ -n ${total[$set]:-} ]] || continue
    printf 'kept %d of %d (%s), %s s\n' "${kept[$set]:-0}" "${total[$set]}" "$set" \
        "$(seconds "${spent[$set]}")"
    all_kept=$((all_kept + ${kept[$set]:-0}))
    all_total=$((all_total + total[$set]))
    all_spent=$((all_spent + spent[$set]))
done
printf 'kept %d of %d (all, %s nodes a move), %s s\n' "$all_kept" "$all_total" "$nodes" \
    "$(seconds "$all_spent")"
