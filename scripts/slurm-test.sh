#!/usr/bin/env bash
# The cluster mode against a real Slurm (run by .ci/run): a single-node
# Slurm on this machine (scripts/slurm-local.sh) solves the standard game
# with 5 pieces, all phases, as one job a table, and every file must be
# byte for byte those of a local `tb generate`. Then a job is cancelled
# while it runs: its dependants must stay pending, no partial file may be
# left, and submitting again must complete the same files. Last, the
# compact solution (`tb submit --compact`: a job a table solving and
# coding it, then one writing the compact tables) must be byte for byte
# that of a local `tb generate --compact`.
#   MORRIS=path/to/morris scripts/slurm-test.sh
# Needs root and Debian's slurm-wlm and munge; the daemons are stopped at
# the end whatever happens.
set -euo pipefail
cd "$(dirname "$0")/.."
MORRIS=$(realpath "${MORRIS:-target/release/morris}")
work=$(mktemp -d /tmp/morris-slurm.XXXXXX)
# munged runs as its own user: it must reach its folder inside.
chmod 755 "$work"
cleanup() {
  scripts/slurm-local.sh stop "$work/slurm" || true
  rm -rf "$work"
}
trap cleanup EXIT
# A signal ends the script through the EXIT trap too.
trap 'exit 130' INT TERM HUP
fail() {
  echo "slurm-test: FAILED: $*" >&2
  exit 1
}
conf=$(scripts/slurm-local.sh start "$work/slurm")
eval "$conf"
rules=(--option Pieces=5)
tables_of() { echo "$1/plain-fly3-protected-single-nopass-blockedloss-eg10-nc100"; }

# Whether no job will still run: every job left is pending for ever,
# waiting for one that failed or was cancelled, or for one such itself
# (squeue's %E: afterok:ID(failed), afterok:ID(unfulfilled)).
settled() {
  local queue
  queue=$(squeue --noheader --format='%i %T %E') || fail "squeue failed"
  awk '
    NF { state[$1] = $2; deps[$1] = $3 }
    END {
      for (i in state) if (state[i] == "PENDING" && deps[i] ~ /\(failed\)/) doomed[i] = 1
      for (changed = 1; changed; ) {
        changed = 0
        for (i in state) {
          if (state[i] != "PENDING" || (i in doomed)) continue
          n = split(deps[i], d, ",")
          for (k = 1; k <= n; k++)
            if (match(d[k], /:[0-9]+\(unfulfilled\)/) && substr(d[k], RSTART + 1, RLENGTH - 14) in doomed) {
              doomed[i] = 1; changed = 1; break
            }
        }
      }
      for (i in state) if (!(i in doomed)) exit 1
    }' <<<"$queue"
}

wait_for_jobs() {
  local deadline=$((SECONDS + 900))
  until settled; do
    ((SECONDS < deadline)) || fail "jobs still running after 15 minutes: $(squeue)"
    sleep 1
  done
}

# The same files, byte for byte (job logs aside).
same_tables() {
  diff -r --exclude=jobs "$1" "$2" || fail "$2 differs from $1"
}

echo "slurm-test: local reference"
"$MORRIS" tb generate --phase all "${rules[@]}" --dir "$work/local" --threads 2 >"$work/local.log" 2>&1

echo "slurm-test: the whole game through Slurm"
start=$SECONDS
"$MORRIS" tb submit "${rules[@]}" --dir "$work/cluster" | tee "$work/submit.log" | tail -2
jobs=$(grep -c '^submitted job ' "$work/submit.log")
((jobs == 37)) || fail "expected 37 jobs, submitted $jobs"
wait_for_jobs
echo "slurm-test: $jobs jobs done in $((SECONDS - start)) s"
same_tables "$work/local" "$work/cluster"
"$MORRIS" tb status --slurm "${rules[@]}" --dir "$work/cluster" | tail -1 | tee "$work/status.log"
grep -q '^40 of 40 tables valid (100.0% of the slots), 0 damaged, 0 missing' "$work/status.log" ||
  fail "tb status does not see all 40 tables"
# Everything is there: nothing more to submit.
again=$("$MORRIS" tb submit "${rules[@]}" --dir "$work/cluster")
grep -q '^submitted 0 jobs' <<<"$again" || fail "a complete folder got jobs: $again"

echo "slurm-test: a job cancelled while it runs"
"$MORRIS" tb submit "${rules[@]}" --dir "$work/killed" >"$work/submit2.log"
victim=$(awk '$NF == "5-5" && $1 == "submitted" { sub(":", "", $3); print $3 }' "$work/submit2.log")
[[ -n $victim ]] || fail "no job for 5-5 in: $(cat "$work/submit2.log")"
deadline=$((SECONDS + 600))
until [[ $(squeue --noheader -j "$victim" -o %T 2>/dev/null) == RUNNING ]]; do
  ((SECONDS < deadline)) || fail "job $victim (5-5) never ran"
  sleep 0.1
done
# Running in Slurm's eyes is not yet running in morris's: cancel once the
# job has said it started (its signal handler is then in place).
dir=$(tables_of "$work/killed")
until grep -q '^5-5: job .* started' "$dir/jobs/5-5-$victim.log" 2>/dev/null; do
  ((SECONDS < deadline)) || fail "job $victim (5-5) never started: $(cat "$dir/jobs/5-5-$victim.log")"
  sleep 0.05
done
scancel "$victim"
wait_for_jobs
[[ ! -e $dir/5-5.mtb ]] || fail "the cancelled job left 5-5.mtb"
grep -q 'stopped by a signal' "$dir/jobs/5-5-$victim.log" ||
  fail "job $victim did not stop on scancel's signal: $(cat "$dir/jobs/5-5-$victim.log")"
leftovers=$(find "$work/killed" -name '*.tmp*')
[[ -z $leftovers ]] || fail "partial files left: $leftovers"
# The jobs reading 5-5, and those above them, wait for ever.
never=$(squeue --noheader --format='%r' | grep -c '^DependencyNeverSatisfied$' || true)
((never > 0)) || fail "no job waits for the cancelled one: $(squeue)"
pending=$(squeue --noheader --states=PENDING | wc -l)
for t in 4-5+1-0 4-4+1-1 0-0+5-5; do
  [[ ! -e $dir/placement-standard-fulldraw/$t.mtb ]] || fail "$t was built without 5-5"
done
"$MORRIS" tb status --slurm "${rules[@]}" --dir "$work/killed" >"$work/status2.log"
grep -Eq "^ +5-5 +[0-9]+  missing, job $victim CANCELLED" "$work/status2.log" ||
  fail "tb status does not show the cancelled job: $(cat "$work/status2.log")"
grep -q "^$pending jobs wait for a job that failed or was cancelled" "$work/status2.log" ||
  fail "tb status does not count the $pending waiting jobs: $(tail -3 "$work/status2.log")"
echo "slurm-test: cancelled job $victim (5-5); $pending jobs wait for ever; submitting again"
"$MORRIS" tb submit "${rules[@]}" --dir "$work/killed" | tee "$work/submit3.log" | tail -1
cancelled=$(grep -c '^cancelled job ' "$work/submit3.log" || true)
((cancelled == pending)) || fail "cancelled $cancelled of the $pending jobs that could never run"
resubmitted=$(grep -c '^submitted job ' "$work/submit3.log" || true)
((resubmitted == pending + 1)) || fail "submitted $resubmitted jobs, expected $((pending + 1))"
wait_for_jobs
same_tables "$work/local" "$work/killed"

echo "slurm-test: the compact solution through Slurm"
"$MORRIS" tb generate --compact "${rules[@]}" --dir "$work/compact-local" --threads 2 >"$work/compact-local.log" 2>&1
start=$SECONDS
"$MORRIS" tb submit --compact "${rules[@]}" --dir "$work/compact" | tee "$work/submit4.log" | tail -2
jobs=$(grep -c '^submitted job ' "$work/submit4.log")
((jobs == 38)) || fail "expected 37 jobs and the last one, submitted $jobs"
wait_for_jobs
echo "slurm-test: $jobs jobs done in $((SECONDS - start)) s"
[[ ! -e $work/compact/compact-build ]] || fail "the staging folder is left: $(find "$work/compact/compact-build" | head)"
grep -q 'compact solution: 40 tables' "$(tables_of "$work/compact")"/jobs/compact-*.log ||
  fail "the last job did not write the compact tables: $(cat "$(tables_of "$work/compact")"/jobs/compact-*.log)"
same_tables "$work/compact-local" "$work/compact"
"$MORRIS" tb status "${rules[@]}" --dir "$work/compact" >"$work/status4.log"
grep '^compact solution: whole, 40 tables' "$work/status4.log" || fail "tb status does not see the compact solution: $(head -3 "$work/status4.log")"
echo "slurm-test: passed"
