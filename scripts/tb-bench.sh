#!/usr/bin/env bash
# tb-bench.sh: the table generator's speed on fixed workloads, one or more
# builds side by side in one run (so their numbers compare).
#
#   cp target/release/morris ~/morris-base      # once, before your change
#   scripts/tb-bench.sh ~/morris-base target/release/morris
#
# The workloads are tables of the standard game under EndgameMoves=0
# NoCaptureMoves=0 (Pieces=6): the movement pair 6-6, and the placement
# sectors 5-6+1-0 (21 M slots, its children far larger than the caches) and
# 4-4+2-2 (3.1 M). The first binary builds everything they read once; each
# binary then rebuilds each workload from it at 1 and 2 threads, and a line
# per run gives the seconds and positions/s (medians of REPS runs).
#
# Settings (environment variables):
#   REPS     runs per binary, workload and thread count (default 3)
#   THREADS  thread counts to try (default "1 2")
#   DIR      scratch folder (default a new one under /tmp; removed at the end)
# Exit status: 0 when every run succeeded.
set -euo pipefail

if [[ $# -lt 1 ]]; then
    echo "usage: $0 BINARY [BINARY...]" >&2
    exit 2
fi
for bin in "$@"; do
    [[ -x $bin ]] || { echo "error: $bin is not an executable" >&2; exit 2; }
done
reps=${REPS:-3}
threads=${THREADS:-1 2}
scratch=${DIR:-$(mktemp -d /tmp/tb-bench.XXXXXX)}
trap 'rm -rf "$scratch"' EXIT
rules=(--option Pieces=6 --option EndgameMoves=0 --option NoCaptureMoves=0)
base=$scratch/base

echo "building the tables the workloads read (once, with $1)" >&2
"$1" tb generate --phase all "${rules[@]}" --dir "$base" >/dev/null 2>&1
rules_dir=$(ls -d "$base"/*/)
placement_dir=$(ls -d "$rules_dir"placement-*/)

# One run: copy the base, remove the workload's table, rebuild it; prints
# "seconds positions/s" from the generator's own line for that table.
run() {
    local bin=$1 phase=$2 table=$3 n=$4 work=$scratch/work
    rm -rf "$work"
    cp -r "$base" "$work"
    local file
    if [[ $phase == movement ]]; then
        file=$(ls -d "$work"/*/)$table.mtb
        rm -f "$file" "$(ls -d "$work"/*/)$(echo "$table" | awk -F- '{print $2"-"$1}').mtb"
    else
        file=$(ls -d "$work"/*/placement-*/)$table.mtb
        rm -f "$file"
    fi
    local args=(--phase "$phase" "${rules[@]}" --threads "$n" --dir "$work")
    [[ $phase == movement ]] && args+=(--max-stones 6)
    "$bin" tb generate "${args[@]}" 2>/dev/null |
        awk -v t="$table" '$1 == t":" { s = $6; r = $(NF-1) } END { if (s == "") exit 1; print s, r }'
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf '%-28s %-9s %-8s %10s %14s\n' binary workload threads seconds positions/s
for workload in movement:6-6 placement:5-6+1-0 placement:4-4+2-2; do
    phase=${workload%%:*}
    table=${workload#*:}
    for n in $threads; do
        for bin in "$@"; do
            results=()
            for _ in $(seq "$reps"); do
                results+=("$(run "$bin" "$phase" "$table" "$n")")
            done
            secs=$(printf '%s\n' "${results[@]}" | awk '{print $1}' | median)
            rate=$(printf '%s\n' "${results[@]}" | awk '{print $2}' | median)
            printf '%-28s %-9s %-8s %10s %14s\n' "$bin" "$table" "$n" "$secs" "$rate"
        done
    done
done
