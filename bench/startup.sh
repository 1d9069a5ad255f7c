#!/usr/bin/env bash
# bench/startup.sh - start-up of shmem4j against the C peer (Open MPI OSHMEM): the whole command
# `oshrun -n N PROGRAM` for a program that initializes, adds 1 to a counter on PE 0 and finalizes
# (bench/peer/startup.c and its twin org.shmem4j.bench.Startup), at several PE counts, the
# variants interleaved (C, Java, C, Java, ... at every PE count of every pass), so that a machine
# whose load changes treats them alike.
#
# Usage: bench/startup.sh [NAME=OSHRUN ...]
#   NAME=OSHRUN   a Java variant: OSHRUN is an oshrun command (split on spaces), for example
#                 before=/tmp/old/bin/oshrun after=bin/oshrun (default: java=bin/oshrun)
# Knobs: PES="8 32 128" (PE counts), REPS=3 (passes), PEER=1 (0 leaves the C peer out),
#        TIMEOUT=600 (seconds per run), OUT=file (raw lines; default a temporary file, kept).
# Prints OSU-style tables: per PE count the median [min-max] over the passes of the wall time of
# the whole command (s), then of the instant the last PE left shmem_init (ms from the command's
# start), and each Java variant's ratio to the C peer (median of the per-pass ratios).
# Needs for the C peer: oshcc and oshrun of Open MPI (apt-get install -y openmpi-bin libopenmpi-dev).
set -u
here=$(cd "$(dirname "$0")" && pwd)
cd "$(dirname "$here")"
. bench/jars.sh
build_if_stale startup.sh
jar=$(pwd)/$jar
pes=${PES:-8 32 128}
reps=${REPS:-3}
limit=${TIMEOUT:-600}
out=${OUT:-$(mktemp /tmp/startup.XXXXXX)}
variants=()
if [ "${PEER:-1}" = 1 ]; then
    for tool in oshcc oshrun; do
        command -v "$tool" >/dev/null || {
            echo "startup.sh: $tool not found (apt-get install -y openmpi-bin libopenmpi-dev), or PEER=0" >&2; exit 1; }
    done
    work=$(mktemp -d /tmp/shmem4j-startup.XXXXXX)
    trap 'rm -rf "$work"' EXIT
    oshcc -O2 -std=gnu11 -Wall -Wextra -o "$work/startup" "$here/peer/startup.c" || exit 1
    variants+=("c=peer")
fi
if [ $# -gt 0 ]; then variants+=("$@"); else variants+=("java=bin/oshrun"); fi

now_us() { echo $(( $(date +%s%N) / 1000 )); }

# one_run NAME N OSHRUN...: appends "NAME n=N wall_s= cpu_s= main_ms= init_ms=" to $out
one_run() {
    local name=$1 n=$2 t0 rc log
    shift 2
    log=$(mktemp)
    t0=$(now_us)
    if [ "$1" = peer ]; then
        # --mca osc ^rdma: see bench/peer/run.sh (OSHMEM programs crash in finalize without it)
        local extra=()
        [ "$(id -u)" = 0 ] && extra+=(--allow-run-as-root)
        [ "$n" -gt "$(nproc)" ] && extra+=(--oversubscribe)
        /usr/bin/time -f "time %e %U %S" -o "$log.time" timeout "$limit" oshrun "${extra[@]}" -np "$n" --mca osc '^rdma' \
            "$work/startup" > "$log" 2> "$log.err"
    else
        /usr/bin/time -f "time %e %U %S" -o "$log.time" timeout "$limit" "$@" -n "$n" --oversubscribe -cp "$jar" \
            org.shmem4j.bench.Startup > "$log" 2> "$log.err"
    fi
    rc=$?
    if [ $rc -ne 0 ] || ! grep -q "^startup pes=$n " "$log"; then
        echo "# $name n=$n FAILED rc=$rc: $(tail -3 "$log.err" | tr '\n' ' ')" | tee -a "$out" >&2
    else
        awk -v name="$name" -v n="$n" -v t0="$t0" '
            $1 == "time" { wall = $2; cpu = $3 + $4 }
            $1 == "startup" { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
            END { printf "%s n=%d wall_s=%.3f cpu_s=%.2f main_ms=%.0f init_ms=%.0f\n", name, n, wall, cpu,
                (v["main_us"] - t0) / 1000, (v["init_us"] - t0) / 1000 }' "$log" "$log.time" | tee -a "$out"
    fi
    rm -f "$log" "$log.err" "$log.time"
}

echo "# startup.sh $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD 2>/dev/null) $(nproc) cpus; loadavg $(cat /proc/loadavg)" | tee -a "$out"
for v in "${variants[@]}"; do echo "# variant ${v%%=*}: ${v#*=}" | tee -a "$out"; done
for r in $(seq "$reps"); do
    for n in $pes; do
        for v in "${variants[@]}"; do
            # shellcheck disable=SC2086 # the oshrun command is split on spaces on purpose
            one_run "${v%%=*}" "$n" ${v#*=}
        done
    done
done
echo "# loadavg after $(cat /proc/loadavg); raw lines in $out" | tee -a "$out"
"$here/startup-table.awk" "$out"
