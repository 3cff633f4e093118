#!/usr/bin/env bash
# gauntlet.sh: one engine against the same engine with other option settings.
#
# The first engine ("base", default options) plays every entry of SETTINGS
# below; the summary ranks them all. Edit SETTINGS to the options you are
# tuning: each entry is "NAME|key=value|key=value...", with the keys of
# `morris match --engine` (option.NAME=VALUE, depth=N, tc=S+INC, ...).
#
#   scripts/gauntlet.sh                       # the settings below
#   scripts/gauntlet.sh --variant morabaraba  # extra match options
#
# Settings (environment variables):
#   MORRIS       the engine binary (default: builds target/release/morris)
#   TC           time control of every engine without its own (5+0.05)
#   ROUNDS       rounds; each plays GAMES per pairing on new openings (1)
#   GAMES        games per pairing per round, colours alternating (40)
#   CONCURRENCY  games at once (the number of cores)
#   OUT          the record file (gauntlet-<date>.pgn)
set -euo pipefail

SETTINGS=(
    "hash-1|option.Hash=1"
    "hash-64|option.Hash=64"
    "overhead-200|option.Move Overhead=200"
    "depth-6|depth=6|option.Hash=64"
)

root=$(cd "$(dirname "$0")/.." && pwd)
if [[ -z ${MORRIS:-} ]]; then
    cargo build --release --quiet --manifest-path "$root/Cargo.toml"
    MORRIS=$root/target/release/morris
fi
args=(--engine cmd="$MORRIS" name=base)
for entry in "${SETTINGS[@]}"; do
    IFS='|' read -r -a parts <<<"$entry"
    args+=(--engine cmd="$MORRIS" name="${parts[0]}" "${parts[@]:1}")
done

"$MORRIS" match "${args[@]}" --gauntlet \
    --tc "${TC:-5+0.05}" \
    --rounds "${ROUNDS:-1}" \
    --games "${GAMES:-40}" \
    --concurrency "${CONCURRENCY:-$(nproc)}" \
    --out "${OUT:-gauntlet-$(date +%Y%m%d-%H%M%S).pgn}" \
    "$@"
