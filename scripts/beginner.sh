#!/usr/bin/env bash
# beginner.sh: a beginner-like player for matches, speaking the UCI-like
# protocol: it sees one ply ahead and nothing more. It closes a mill when
# it can; otherwise it plays a random move after which the opponent cannot
# close one at once, and a random move when every move allows one. The
# rules core of a `morris` child lists the legal moves (rule options sent
# with setoption reach it too), so it plays every rule set.
#
#   morris match --engine cmd=scripts/beginner.sh --engine cmd=morris option.Skill=0
#
# Settings (environment): MORRIS (the binary; default target/release/morris
# of this checkout), SEED (its random choices; default the process id).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${MORRIS:-$root/target/release/morris}
RANDOM=${SEED:-$$}
coproc RULES { exec "$bin" 2>/dev/null; }

# Sets `listed` to the legal moves after `position $1` (in this shell:
# the child's pipes are not open in subshells).
legal() {
    echo "position $1" >&"${RULES[1]}"
    echo "moves" >&"${RULES[1]}"
    local line
    while read -r line <&"${RULES[0]}"; do
        if [[ $line == moves* ]]; then
            read -r -a listed <<<"${line#moves}"
            return
        fi
    done
    echo "info string error: the rules child ($bin) ended" >&2
    exit 1
}

# `position` arguments with one more move played.
after() {
    if [[ $1 == *" moves "* || $1 == *" moves" ]]; then
        echo "$1 $2"
    else
        echo "$1 moves $2"
    fi
}

# Sets `best` to one of its arguments (in this shell, so that SEED
# repeats the choices).
pick() {
    local -a options=("$@")
    best=${options[RANDOM % ${#options[@]}]}
}

position="startpos"
while read -r cmd rest; do
    case $cmd in
    uci)
        echo "id name beginner"
        echo "id author the morris developers"
        echo "uciok"
        ;;
    isready) echo "readyok" ;;
    setoption | ucinewgame) echo "$cmd $rest" >&"${RULES[1]}" ;;
    position) position=$rest ;;
    go)
        legal "$position"
        moves=("${listed[@]}")
        if ((${#moves[@]} == 0)); then
            echo "bestmove (none)"
            continue
        fi
        mills=()
        for m in "${moves[@]}"; do
            [[ $m == *x* ]] && mills+=("$m")
        done
        if ((${#mills[@]} > 0)); then
            pick "${mills[@]}"
        else
            safe=()
            for m in "${moves[@]}"; do
                legal "$(after "$position" "$m")"
                [[ " ${listed[*]} " == *x* ]] || safe+=("$m")
            done
            if ((${#safe[@]} > 0)); then
                pick "${safe[@]}"
            else
                pick "${moves[@]}"
            fi
        fi
        echo "info depth 1 score cp 0 pv $best"
        echo "bestmove $best"
        ;;
    quit) break ;;
    esac
done
echo quit >&"${RULES[1]}"
