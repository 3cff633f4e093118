#!/usr/bin/env bash
# perfect-match.sh: `morris` as a user gets it (the built-in book, its
# automatic small tables, search) against perfect play from a complete
# solution (scripts/perfect.sh), from the start and from drawn
# middle-game positions of those games; then, with the solution as
# referee, every value the shipped engine threw away.
#
#   scripts/perfect-match.sh                     # published rules, 100 + 100 games
#   RULES=default GAMES=5 MIDDLE=4 NODES=200000 scripts/perfect-match.sh
#   POLICY=trap CONCURRENCY=2 scripts/perfect-match.sh   # against traps
#
# The start is a draw under both rule sets, so every game the shipped
# engine loses is a drawn position thrown away; the report lists, for
# each game, the first move of the shipped engine that changed the value
# (its position string and the move, and how many plies past the
# built-in book it came): together, a test set of the search's blind
# spots (docs/perfect-match/blind-spots.txt, scripts/blind-spots.sh).
#
# Settings (environment):
#   RULES        published (EndgameMoves=0 NoCaptureMoves=0) or default
#                (the nine preset as morris plays it) [published]
#   RULE_OPTIONS more rule options, Name=Value separated by spaces, for a
#                reduced game (Pieces=4: the tests play one) []
#   TABLES       the complete solution of those rules (`morris tb generate
#                --compact`, or --phase all for distances) [$MORRIS_TB_DIR,
#                else ~/.cache/morris/tb]
#   POLICY       the perfect side's drawing moves: random, trap (the one
#                leaving the smallest share of replies that keep the draw)
#                or engine (one after which the shipped engine's shallow
#                search replies with a losing move); see scripts/perfect.sh
#                [random]
#   GAMES        games from the start per colour [100]
#   MIDDLE       games from drawn middle-game positions, two a position [100]
#   MOVETIME     milliseconds a move of the shipped engine [1000]; NODES=N
#                a node budget instead
#   MAX_PLIES    a game still going this many plies past its start is
#                adjudicated a draw (the published rules have no
#                move-count draw, and the perfect side's random drawing
#                moves seldom repeat); a value thrown away before is still
#                reported [200]
#   PLACEMENT    set (to anything): the placement phase alone, each game
#                adjudicated when its last stone is placed, and no middle
#                part. Under the default rules' move-count draws this is
#                what their compact solution referees exactly (it holds
#                every placement position's value, and the first movement
#                position's, at clock 0; later movement positions need the
#                full tables with distances, `tb generate --phase all`) []
#   CONCURRENCY  games at once [1]
#   TIMEMARGIN   milliseconds past MOVETIME before a side loses on time: the
#                perfect side's `morris solve` runs (and POLICY=engine's
#                searches) must not lose it games [5000]
#   OUT          the folder of the records and the report [perfect-match]
#   MORRIS       the binary [builds target/release/morris]; SEED [1]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
if [[ -z ${MORRIS:-} ]]; then
    cargo build --release --quiet --manifest-path "$root/Cargo.toml"
    MORRIS=$root/target/release/morris
fi
export MORRIS
export TABLES=${TABLES:-${MORRIS_TB_DIR:-$HOME/.cache/morris/tb}}
export POLICY=${POLICY:-random}
out=${OUT:-perfect-match}
games=${GAMES:-100}
middle=${MIDDLE:-100}
seed=${SEED:-1}
case ${RULES:-published} in
published) rules=(--option EndgameMoves=0 --option NoCaptureMoves=0) ;;
default) rules=() ;;
*)
    echo "perfect-match.sh: RULES is published or default, not '$RULES'" >&2
    exit 2
    ;;
esac
for option in ${RULE_OPTIONS:-}; do
    rules+=(--option "$option")
done
# The plies of the built-in book serving these rules (none for a reduced
# game), as `uci` lists the books.
book_rules="Variant=nine"
[[ ${RULES:-published} == published ]] && book_rules+=" EndgameMoves=0 NoCaptureMoves=0"
book=""
if [[ -z ${RULE_OPTIONS:-} ]]; then
    book=$(printf 'uci\nquit\n' | "$MORRIS" 2>/dev/null |
        sed -n "s/^info string book: .* within \([0-9]*\) plies, for rules $book_rules\$/\1/p" | head -1)
fi
if [[ -n ${NODES:-} ]]; then
    limit=(--nodes "$NODES")
else
    limit=(--movetime "${MOVETIME:-1000}")
fi
mkdir -p "$out"
# The small tables the shipped engine builds itself (TablebaseAuto), built
# first so that no game waits for them.
auto=${MORRIS_TB_AUTO:-5}
if ((auto >= 3)); then
    "$MORRIS" tb generate --max-stones "$auto" --dir "$out/shipped-tb" "${rules[@]}" \
        >"$out/shipped-tb.log" 2>&1
fi
# The shipped engine builds and keeps its own small tables: it must not
# see the solution.
shipped=(--engine cmd="$MORRIS" name=shipped option.TablebasePath="$out/shipped-tb")
perfect=(--engine cmd="$root/scripts/perfect.sh" name=perfect)
match() { # OUTFILE, then what to play from
    local file=$1
    shift
    "$MORRIS" match "${shipped[@]}" "${perfect[@]}" "${rules[@]}" "${limit[@]}" \
        --max-plies "${MAX_PLIES:-200}" --concurrency "${CONCURRENCY:-1}" \
        --timemargin "${TIMEMARGIN:-5000}" \
        --ratinginterval 0 --out "$out/$file" "$@" \
        >"$out/${file%.pgn}.summary.txt"
}
# The solution's value of every position of a record's games, one JSON
# object a position (`value_change` marks a move that changed it).
referee() {
    MORRIS_TB_DIR=$TABLES MORRIS_TB_AUTO=0 "$MORRIS" analyze "$out/$1" --json --depth 1 \
        --hash 1 >"$out/${1%.pgn}.jsonl"
}

# The start position of these rules (its pieces in hand).
setoptions=$(for ((i = 1; i < ${#rules[@]}; i += 2)); do
    printf 'setoption name %s value %s\n' "${rules[i]%%=*}" "${rules[i]#*=}"
done)
start=$(printf '%s\nposition startpos\nd\nquit\n' "$setoptions" | "$MORRIS" 2>/dev/null |
    sed -n 's/^Fen: //p')
if [[ -n ${PLACEMENT:-} ]]; then
    read -r _ _ white black _ <<<"$start"
    MAX_PLIES=$((white + black)) middle=0
fi
rm -f "$out/start.pgn" "$out/middle.pgn"
SEED=$seed match start.pgn --fen "$start" --games $((2 * games))
referee start.pgn

# Drawn positions past the placement phase (ply 18 on) before any value
# was thrown away in their game, a random sample of them.
jq -r 'select(.ply >= 18 and .game_over == null) | [.source, .ply, .fen, (.value_change // "")] | @tsv' \
    "$out/start.jsonl" |
    awk -F'\t' '$1 != game { game = $1; thrown = 0 } !thrown { print $3 } $4 != "" && $4 !~ /-> draw$/ { thrown = 1 }' |
    sort -u | shuf --random-source=<(yes "$seed") -n $((middle / 2)) >"$out/middle.txt" || true
if [[ -s $out/middle.txt && $middle -gt 0 ]]; then
    # `--games` counts the games of the whole schedule: each position twice.
    SEED=$((seed + 1)) match middle.pgn --openings "$out/middle.txt" \
        --games $((2 * $(wc -l <"$out/middle.txt")))
    referee middle.pgn
fi

# The report: results, and each game's first value thrown away by the
# shipped engine.
{
    echo "# morris against perfect play (${RULES:-published} rules${RULE_OPTIONS:+ $RULE_OPTIONS}, ${limit[*]}, perfect side: $POLICY)"
    for part in start middle; do
        [[ -s $out/$part.pgn ]] || continue
        echo
        echo "## from the $part: $(grep -c '^\[Result' "$out/$part.pgn") games"
        grep -E '^(shipped|perfect|Score|Elo)' "$out/$part.summary.txt" || tail -3 "$out/$part.summary.txt"
        lost=$(sed -n 's/^shipped vs perfect ([0-9]* games): +[0-9]* =[0-9]* -\([0-9]*\) .*/\1/p' \
            "$out/$part.summary.txt")
        echo "games lost by the shipped engine: ${lost:-?}"
        jq -r --slurpfile w <(awk -F'"' '/^\[White /{print "\"" $2 "\""}' "$out/$part.pgn" | jq -s .) '
            select(.value_change != null) |
            (.source | ltrimstr("game ") | tonumber) as $g |
            (if (.move_number | endswith("...")) then "Black" else "White" end) as $mover |
            select(($w[0][$g - 1] == "shipped") == ($mover == "White")) |
            [.source, .ply, .fen, .played, .value_change] | @tsv' "$out/$part.jsonl" |
            awk -F'\t' -v book="$book" '!seen[$1]++ {
                    n++
                    # The move'"'"'s ply from the start of the game, from its
                    # position'"'"'s move number and side to move.
                    split($3, f, " ")
                    ply = 2 * (f[6] - 1) + (f[2] == "b") + 1
                    past = book == "" ? "" : sprintf(", %d plies past the book", ply - book)
                    printf "- %s, ply %s: %s plays %s (%s%s)\n", $1, $2, $3, $4, $5, past
                }
                END { printf "values thrown away by the shipped engine: %d games\n", n }'
    done
} | tee "$out/report.md"
