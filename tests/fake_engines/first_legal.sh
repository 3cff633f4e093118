#!/usr/bin/env bash
# A fake engine for the match tests: speaks the UCI-like protocol and plays
# the first legal move (as `morris perft 1 --divide` lists them), using the
# morris binary named by $MORRIS. Standard rules only (setoption is ignored).
#
# Usage: first_legal.sh [MODE N]; from its N-th `go` on, MODE misbehaves:
#   crash    exit with code 3 instead of answering
#   illegal  answer a well-formed but illegal move (a slide in placement)
#   sleep    sleep for a minute instead of answering
#   garbage  answer a bestmove line without a move
# MODE no-handshake never answers `uci`.
mode=${1:-}
after=${2:-1}
gos=0
fen=""
moves=""
while read -r cmd rest; do
    case $cmd in
    uci)
        [[ $mode == no-handshake ]] && continue
        echo "id name first_legal ${mode}"
        echo "uciok"
        ;;
    isready) echo "readyok" ;;
    position)
        fen=""
        moves=""
        if [[ $rest == fen* ]]; then
            fen=${rest#fen }
            fen=${fen%% moves *}
        fi
        [[ $rest == *" moves "* ]] && moves=${rest#* moves }
        ;;
    go)
        gos=$((gos + 1))
        if [[ -n $mode && $gos -ge $after ]]; then
            case $mode in
            crash) exit 3 ;;
            illegal) echo "bestmove a1-a4"; continue ;;
            sleep) exec sleep 60 ;;
            garbage) echo "bestmove"; continue ;;
            esac
        fi
        args=(perft 1 --divide --moves "$moves")
        [[ -n $fen ]] && args+=(--fen "$fen")
        first=$("$MORRIS" "${args[@]}" 2>/dev/null | head -n 1)
        if [[ $first == Nodes* || -z $first ]]; then
            echo "bestmove (none)"
        else
            echo "info depth 1 score cp 0 nodes 1 pv ${first%%:*}"
            echo "bestmove ${first%%:*}"
        fi
        ;;
    quit) exit 0 ;;
    esac
done
