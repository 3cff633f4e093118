#!/usr/bin/env bash
# critical-positions.sh: critical positions, judged exactly, as a suite
# for scripts/blind-spots.sh: drawn or won positions where at most
# MAX_KEEPING of at least MIN_LEGAL moves keep the value, met along random
# games that keep the value (each move a random value-keeping one, as
# between two perfect players), from the ply FROM to the ply TO.
#
#   scripts/critical-positions.sh > critical.txt                 # plies 5-9, the built-in book
#   TABLES=~/compact FROM=10 TO=17 scripts/critical-positions.sh  # past it, from the solution
#
# Values come from `morris solve`: the tables under TABLES where they
# cover a position, else the built-in book (9 plies). Every third position
# found goes to the held-out set. Printed: the suite's lines
# (docs/perfect-match/blind-spots.txt says the format).
#
# Settings (environment):
#   RULES        published or default [published]
#   RULE_OPTIONS more rule options, Name=Value separated by spaces, for a
#                reduced game (Pieces=4: the tests use one) []
#   GAMES        random games [200]
#   FROM, TO     the plies (positions after that many moves) examined [5, 9]
#   MAX_KEEPING  [2]; MIN_LEGAL [5]
#   TABLES       the solution's root folder [none: the book alone]
#   SEED         the random games' seed [1]
#   MORRIS       the binary [builds target/release/morris]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
if [[ -z ${MORRIS:-} ]]; then
    cargo build --release --quiet --manifest-path "$root/Cargo.toml"
    MORRIS=$root/target/release/morris
fi
rules_name=${RULES:-published}
case $rules_name in
published) rules=(--option EndgameMoves=0 --option NoCaptureMoves=0) ;;
default) rules=() ;;
*)
    echo "critical-positions.sh: RULES is published or default, not '$rules_name'" >&2
    exit 2
    ;;
esac
for option in ${RULE_OPTIONS:-}; do
    rules+=(--option "$option")
    rules_name+=",$option"
done
games=${GAMES:-200}
from=${FROM:-5} to=${TO:-9}
max_keeping=${MAX_KEEPING:-2} min_legal=${MIN_LEGAL:-5}
tables=${TABLES:-}
if [[ -z $tables ]]; then
    # A folder with no tables: the book alone.
    tables=$(mktemp -d)
    trap 'rmdir "$tables"' EXIT
fi
RANDOM=${SEED:-1}

found=0
declare -A seen
for ((game = 1; game <= games; game++)); do
    moves=""
    for ((ply = 0; ply <= to; ply++)); do
        text=$("$MORRIS" solve --dir "$tables" "${rules[@]}" --moves "$moves" 2>/dev/null || true)
        fen=$(sed -n 's/^position //p' <<<"$text")
        keeping=() legal=0 value=""
        while read -r first second _; do
            case $first in
            position) ;;
            value) value=${second%,} ;;
            *)
                legal=$((legal + 1))
                [[ ${second%,} == "$value" ]] && keeping+=("$first")
                ;;
            esac
        done <<<"$text"
        # No moves: the game ended, or their values are not known.
        ((${#keeping[@]} > 0)) || break
        if ((ply >= from)) && [[ $value != loss && -z ${seen[$fen]:-} ]] &&
            ((${#keeping[@]} <= max_keeping && legal >= min_legal)); then
            seen[$fen]=1
            found=$((found + 1))
            set=tune
            ((found % 3 == 0)) && set=held-out
            printf '%s\t%s\t%s\t%s\t%s\n' "$set" "$rules_name" "$fen" "${keeping[*]}" \
                "random game $game (seed ${SEED:-1}) ply $ply: $value, ${#keeping[@]} of $legal keep it"
        fi
        moves+=" ${keeping[RANDOM % ${#keeping[@]}]}"
    done
done
echo "critical-positions.sh: $found positions from $games games" >&2
