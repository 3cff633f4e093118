#!/usr/bin/env bash
# A single-node Slurm on this machine, for scripts/slurm-test.sh:
#   scripts/slurm-local.sh start DIR   configuration, state and logs in DIR;
#                                      prints the SLURM_CONF line to export
#   scripts/slurm-local.sh stop DIR    stops the daemons started by start DIR
# Needs root and Debian's slurm-wlm and munge (apt-get install slurm-wlm munge).
set -euo pipefail
action=${1:?usage: slurm-local.sh start|stop DIR}
dir=${2:?usage: slurm-local.sh start|stop DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
chmod 755 "$dir"

stop() {
  for pidfile in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munged.pid"; do
    if [[ -s $pidfile ]]; then
      pid=$(cat "$pidfile")
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
      rm -f "$pidfile"
    fi
  done
}

if [[ $action == stop ]]; then
  stop
  exit 0
fi
[[ $action == start ]] || { echo "usage: slurm-local.sh start|stop DIR" >&2; exit 2; }
for program in munged slurmctld slurmd sbatch; do
  command -v "$program" >/dev/null || {
    echo "error: $program not found: apt-get install slurm-wlm munge" >&2
    exit 1
  }
done

host=$(hostname -s)
cpus=$(nproc)
# Leave the system a quarter of the memory (and at least 1 GB).
mem_mb=$(awk '/MemTotal/ { m = int($2 / 1024); r = int(m * 3 / 4); if (m - r < 1024) r = m - 1024; print r }' /proc/meminfo)
# A fresh controller state: no jobs of an earlier start.
rm -rf "$dir/state" "$dir/spool"
mkdir -p "$dir/state" "$dir/spool" "$dir/log" "$dir/munge"
cat >"$dir/slurm.conf" <<EOF
ClusterName=local
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
MinJobAge=3600
KillWait=5
NodeName=$host CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$dir/slurm.conf"

# munge: a key of our own, its socket and pid under DIR.
key="$dir/munge/munge.key"
if [[ ! -s $key ]]; then
  dd if=/dev/urandom bs=1 count=1024 of="$key" status=none
fi
chown -R munge:munge "$dir/munge" 2>/dev/null || true
chmod 700 "$dir/munge"
chmod 400 "$key"
socket="$dir/munge/munge.socket.2"
mkdir -p /run/munge
chown munge:munge /run/munge 2>/dev/null || true
stop
runuser=(runuser -u munge --)
id munge >/dev/null 2>&1 || runuser=()
"${runuser[@]}" munged --key-file="$key" --socket="$socket" \
  --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
  --seed-file="$dir/munge/munged.seed" --force
for _ in $(seq 50); do [[ -s $dir/munge/munged.pid ]] && break; sleep 0.1; done
cp "$dir/munge/munged.pid" "$dir/munged.pid"
# Slurm's daemons and commands find munge's socket through the default
# path: point it at ours.
if [[ $socket != /run/munge/munge.socket.2 ]]; then
  ln -sf "$socket" /run/munge/munge.socket.2
fi

slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 100); do
  if sinfo --noheader -o '%T' 2>/dev/null | grep -qx idle; then
    echo "export SLURM_CONF=$SLURM_CONF"
    exit 0
  fi
  sleep 0.2
done
echo "error: the Slurm node did not become idle; logs in $dir/log" >&2
sinfo >&2 || true
tail -n 20 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 || true
stop
exit 1
