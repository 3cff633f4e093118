#!/usr/bin/env bash
# A fake engine of the other mill engine family (proto=sanmill) for the
# match tests: the UCI handshake; moves without their removals (a move that
# closes a mill, then `x<point>` when given the position with it and asked
# again); the one-line answer `info score 0 bestmove X` followed by debug
# lines. It plays the first legal move as `morris perft 1 --divide` lists
# them, using the morris binary named by $MORRIS. Standard rules only
# (setoption is ignored). It declares the C++ member's strength options
# (SkillLevel 0-30, IDSEnabled, DrawOnHumanExperience) at their weak
# defaults; the Rust spelling declares SkillLevel 0-20 only. With
# $SANMILL_LOG set, it appends every command it reads to that file.
#
# Usage: sanmill.sh [MODE [N]]:
#   rust         answers as the Rust member writes them: `info depth 1 score 0 bestmove X`
#   bad-removal  when a removal is owed, removes its own piece (or an empty point)
#   no-removal   when a removal is owed, answers the move again instead
#   removal      answers a removal at its N-th `go` (when none is owed)
#   draw         answers `bestmove draw` from its N-th `go` on
#   slow         from its N-th `go` on, answers only when told `stop`
#   hang         from its N-th `go` on, never answers
#   glued        answers `isready` as the C++ member does while its analysis
#                thread writes: `readyok` and analysis text on one line
mode=${1:-}
after=${2:-1}
gos=0
readies=0
moves=""

answer() {
    if [[ $mode == rust ]]; then
        echo "info depth 1 score 0 bestmove $1"
    else
        echo "info score 0 bestmove $1"
    fi
    echo "Debug: 1 nodes searched, bestmove $1 kept"
    echo ""
    echo "Total time: 0 ms"
}

# The first legal move after the moves in $@ (our compound notation), or
# nothing when the moves are not all legal or the game is over.
first_move() {
    local list
    list=$("$MORRIS" perft 1 --divide --moves "$*" 2>/dev/null) || return 1
    list=${list%%$'\n'*}
    [[ $list == Nodes* ]] && return 0
    echo "${list%%:*}"
}

while read -r cmd rest; do
    [[ -n $SANMILL_LOG ]] && echo "$cmd $rest" >>"$SANMILL_LOG"
    case $cmd in
    uci)
        echo "id name fake sanmill ${mode}"
        if [[ $mode == rust ]]; then
            echo "option name SkillLevel type spin default 1 min 0 max 20"
        else
            echo "option name Hash type spin default 16 min 1 max 33554432"
            echo "option name SkillLevel type spin default 1 min 0 max 30"
            echo "option name MoveTime type spin default 1 min 0 max 60"
            echo "option name IDSEnabled type check default false"
            echo "option name DrawOnHumanExperience type check default true"
        fi
        echo "uciok"
        ;;
    isready)
        readies=$((readies + 1))
        if [[ $mode != glued ]]; then
            echo "readyok"
        elif ((readies % 2)); then
            echo "readyok0.00% : 0.00% : 0.00%"
        else
            echo "0.00% : 0.00% : readyok0.00%"
        fi
        ;;
    position)
        moves=""
        [[ $rest == *" moves "* ]] && moves=${rest#* moves }
        ;;
    go)
        gos=$((gos + 1))
        late=$([[ $gos -ge $after ]] && echo 1)
        echo "info depth 1 score 0 pv"
        echo "Debug: thinking"
        if [[ $mode == hang && -n $late ]]; then
            while read -r c _; do [[ $c == quit ]] && exit 0; done
            exit 0
        fi
        if [[ $mode == draw && -n $late ]]; then
            answer draw
            continue
        fi
        # Our compound moves: each removal joined to the move before it.
        joined=()
        for t in $moves; do
            if [[ $t == x* ]]; then joined[-1]+=$t; else joined+=("$t"); fi
        done
        if [[ $mode == removal && $gos -eq $after ]]; then
            best=xd7
        elif first=$(first_move "${joined[@]}"); then
            if [[ -z $first ]]; then
                best=none
            else
                best=${first%%x*}
            fi
        else
            # The last move closed a mill and owes its (next) removal.
            pending=${joined[-1]}
            unset 'joined[-1]'
            full=$("$MORRIS" perft 1 --divide --moves "${joined[*]}" 2>/dev/null | grep "^${pending}x" | head -n 1)
            full=${full%%:*}
            rest=${full#"$pending"}
            best="x${rest:1:2}"
            case $mode in
            bad-removal) best="x${pending: -2}" ;;
            no-removal) best=${pending%%x*} ;;
            esac
        fi
        if [[ $mode == slow && -n $late ]]; then
            while read -r c _; do
                [[ -n $SANMILL_LOG ]] && echo "$c" >>"$SANMILL_LOG"
                [[ $c == stop ]] && break
                [[ $c == quit ]] && exit 0
            done
        fi
        answer "$best"
        ;;
    quit) exit 0 ;;
    esac
done
