#!/usr/bin/env bash
# perfect.sh: perfect play from a complete solution, as an engine for
# `morris match` (the UCI-like protocol). Each move comes from `morris
# solve` on the tables: a lost position plays the longest resistance (the
# tables' order), a won one is converted (below); a drawn one, by POLICY,
# a random drawing move (random), or the drawing move that leaves the
# opponent the smallest share of its replies keeping the draw (trap: the
# hardest task, ties at random), or the drawing move whose value-losing
# reply the shipped engine's own shallow search prefers (engine: of the
# CANDIDATES drawing moves with the smallest shares, the first after
# which `morris` with its book and no tables, at TRAP_NODES, answers with
# a losing reply; else as trap), so that games from one opening differ.
#
#   TABLES=~/.cache/morris/tb morris match --engine cmd=scripts/perfect.sh \
#       --engine cmd=morris --movetime 1000
#
# A won position with more than one winning move is converted by
# `morris`'s own search (no tables, CONVERT_NODES a move) among the winning
# moves that lead to a position not met before in the game: a compact
# solution has no distances, and a random winning move seldom converts.
# A deep win can still end in a repetition the defender completes, so a
# value thrown away is not always a game lost: the referee's list of
# thrown values is the measure.
#
# Settings (environment): TABLES (the solution's root folder; default
# $MORRIS_TB_DIR, else ~/.cache/morris/tb), MORRIS (the binary; default
# target/release/morris of this checkout), SEED (its random choices;
# default the process id), POLICY (random, trap or engine; default
# random), CANDIDATES (4) and TRAP_NODES (100000) of the engine policy,
# CONVERT_NODES (2000000: a won position's search). A
# position the tables do not give (a folder without the whole solution)
# is answered by the first legal move, with an `info string error:` line.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${MORRIS:-$root/target/release/morris}
tables=${TABLES:-${MORRIS_TB_DIR:-$HOME/.cache/morris/tb}}
RANDOM=${SEED:-$$}
policy=${POLICY:-random}
case $policy in
random) replies=() ;;
trap | engine) replies=(--replies) ;;
*)
    echo "perfect.sh: POLICY is random, trap or engine, not '$policy'" >&2
    exit 2
    ;;
esac
# The rules child: the position string and the legal moves of what the
# match runner sends; for the engine policy, the shallow search (its book,
# no tables: the solution must not be seen) and the conversion's search.
coproc RULES { MORRIS_TB_AUTO=0 exec "$bin" 2>/dev/null; }
echo "setoption name TablebasePath value <empty>" >&"${RULES[1]}"

# The engine options of `morris` (not rules, which `solve` takes too).
engine_options=" Hash Threads MultiPV Clear Hash Move Overhead Skill UCI_LimitStrength UCI_Elo Ponder TablebasePath TablebaseAuto BookPath "

# Asks the rules child `$1` and sets `answer` to its first line starting
# with `$2`.
ask() {
    printf '%s\n' "$1" >&"${RULES[1]}"
    local line
    while read -r line <&"${RULES[0]}"; do
        if [[ $line == "$2"* ]]; then
            answer=${line#"$2"}
            return
        fi
    done
    echo "info string error: the rules child ($bin) ended"
    exit 1
}

# The engine policy's move in the drawn position `$1` from its drawing
# moves `$2...` as `ranked` lists them: the first of the CANDIDATES that
# leave a losing reply after which the shallow search plays one; none if
# no such.
engine_trap() {
    local fen=$1 move after
    shift
    while read -r move; do
        # A new game each time (an empty hash): the same answer as a fresh
        # engine's.
        printf 'ucinewgame\nposition fen %s moves %s\n' "$fen" "$move" >&"${RULES[1]}"
        ask "go nodes ${TRAP_NODES:-100000}" "bestmove "
        after=$("$bin" solve --dir "$tables" --fen "$fen" --moves "$move ${answer%% *}" \
            "${rules[@]}" 2>/dev/null | sed -n 's/^value \([a-z]*\).*/\1/p')
        if [[ $after == win ]]; then
            echo "$move"
            return
        fi
    done < <(printf '%s\n' "$@" | awk '$2 { print $3 }' | head -n "${CANDIDATES:-4}")
}

# A position string's board, side to move and hands: what a repetition
# compares.
key() {
    local fields
    read -r -a fields <<<"$1"
    echo "${fields[*]:0:4}"
}

# Sets `best` to the conversion's move in the won position `$1` from its
# winning moves `$2...`: the shallow search's choice among those that lead
# to a position not met before in this game (all, if none does), so that
# the search's own judgement of the position, which may see no win, never
# walks into a repetition.
convert() {
    local fen=$1 move fresh=()
    local -A after=()
    shift
    for move in "$@"; do
        printf 'position fen %s moves %s\n' "$fen" "$move" >&"${RULES[1]}"
        ask "d" "Fen: "
        after[$move]=$(key "$answer")
        [[ -n ${seen[${after[$move]}]:-} ]] || fresh+=("$move")
    done
    ((${#fresh[@]} > 0)) || fresh=("$@")
    printf 'position %s\n' "$position" >&"${RULES[1]}"
    ask "go nodes ${CONVERT_NODES:-2000000} searchmoves ${fresh[*]}" "bestmove "
    best=${answer%% *}
    [[ -z ${after[$best]:-} ]] || seen[${after[$best]}]=1
}

rules=()
position="startpos"
# The positions of this game so far (board, side and hands of the
# position string), that a conversion does not go back to.
declare -A seen=()
while read -r cmd rest; do
    case $cmd in
    uci)
        echo "id name perfect"
        echo "id author the morris developers"
        echo "uciok"
        ;;
    isready) echo "readyok" ;;
    setoption)
        printf '%s\n' "$cmd $rest" >&"${RULES[1]}"
        if [[ $rest =~ ^name\ (.+)\ value\ (.*)$ ]]; then
            name=${BASH_REMATCH[1]} value=${BASH_REMATCH[2]}
            if [[ $name == Variant ]]; then
                rules+=(--variant "$value")
            elif [[ $engine_options != *" $name "* ]]; then
                rules+=(--option "$name=$value")
            fi
        fi
        ;;
    ucinewgame)
        echo "ucinewgame" >&"${RULES[1]}"
        seen=()
        ;;
    position) position=$rest ;;
    go)
        printf 'position %s\n' "$position" >&"${RULES[1]}"
        ask "d" "Fen: "
        fen=$answer
        seen[$(key "$fen")]=1
        # `shares`: "keeping legal move" of each drawing move, the
        # opponent's replies after it that keep the draw, of its legal ones.
        best="" value="" drawing=() winning=() shares=() ranked=()
        while read -r first second rest; do
            case $first in
            value) value=${second%,} ;;
            position) ;;
            *)
                [[ -z $best ]] && best=$first
                [[ ${second%,} == win ]] && winning+=("$first")
                [[ ${second%,} == draw ]] || continue
                drawing+=("$first")
                if [[ $rest =~ replies\ ([0-9]+)/([0-9]+) ]]; then
                    shares+=("${BASH_REMATCH[1]} ${BASH_REMATCH[2]} $first")
                fi
                ;;
            esac
        done < <("$bin" solve --dir "$tables" --fen "$fen" "${rules[@]}" "${replies[@]}" 2>/dev/null || true)
        # `ranked`: "share losable move", the smallest share first (a move
        # ending the game leaves no reply: share 1); trap plays one of the
        # smallest share. Where the replies are not all known, a random
        # drawing move.
        if ((${#shares[@]} > 0)); then
            mapfile -t ranked < <(printf '%s\n' "${shares[@]}" |
                awk '{ print ($2 ? $1 / $2 : 1), ($1 < $2), $3 }' | sort -g -k1,1)
            drawing=()
            for r in "${ranked[@]}"; do
                if [[ ${r%% *} == "${ranked[0]%% *}" ]]; then
                    drawing+=("${r##* }")
                fi
            done
        fi
        if [[ $policy == engine && $value == draw ]]; then
            lure=$(engine_trap "$fen" "${ranked[@]}")
            if [[ -n $lure ]]; then
                drawing=("$lure")
            fi
        fi
        if [[ $value == draw && ${#drawing[@]} -gt 0 ]]; then
            best=${drawing[RANDOM % ${#drawing[@]}]}
        fi
        if [[ $value == win && ${#winning[@]} -gt 1 ]]; then
            convert "$fen" "${winning[@]}"
        fi
        if [[ -z $best ]]; then
            echo "info string error: the tables under $tables do not give $fen"
            ask "moves" "moves"
            read -r -a legal <<<"$answer"
            best=${legal[0]:-(none)}
        fi
        echo "bestmove $best"
        ;;
    quit) break ;;
    esac
done
