#!/usr/bin/env bash
# bench/scale.sh - the scale table: what a job of N PEs costs (org.shmem4j.bench.Scale), in-process
# (PEs as threads of one JVM: the counts this machine cannot start as processes) and as oshrun jobs.
#
# Usage: bench/scale.sh
# Knobs: INPROC="2 8 32 128 512 1024" (in-process PE counts), PROCS="2 8 32" (oshrun PE counts;
#        oversubscribed; an empty list runs none), REPS=3 (jobs per count; the table gives medians and [min-max]),
#        SHMEM_SYMMETRIC_SIZE=1m and SHMEM_RESERVED_SIZE=16m (so 1,024 regions fit /dev/shm),
#        PEER_REPS=3 PEER_SCALE=10 (per job: timed repeats and iteration scale), OUT=file (raw lines).
# The in-process JVM keeps the default collector (G1): with the serial one, 512 PEs spent seconds per
# young collection promoting what the parked threads held, and 1,024 did not finish in 15 minutes.
# Columns: init_ms (first PE into shmem_init to last out), shm_kb_pe (pages written in /dev/shm per
# PE), rss_kb_pe (the processes' RSS over N), barrier_us, reduce8_us (8-byte sum over the world),
# split2d_us (a 2D split of the world into a near-square grid and destroying it).
set -u
here=$(cd "$(dirname "$0")" && pwd)
cd "$(dirname "$here")"
. "$here/jars.sh"
build_if_stale bench/scale.sh
. bin/jdk25.sh
find_jdk25 || exit 1
inproc=${INPROC-2 8 32 128 512 1024}
procs=${PROCS-2 8 32}
reps=${REPS:-3}
out=${OUT:-$(mktemp /tmp/scale.XXXXXX)}
export SHMEM_SYMMETRIC_SIZE=${SHMEM_SYMMETRIC_SIZE:-1m} SHMEM_RESERVED_SIZE=${SHMEM_RESERVED_SIZE:-16m}
export PEER_REPS=${PEER_REPS:-3} PEER_SCALE=${PEER_SCALE:-10} SHMEM4J_INPROCESS_NODES=1

# one_run KIND N: appends "KIND n=N scale ..." (or a FAILED comment) to $out
one_run() {
    local kind=$1 n=$2 log rc
    log=$(mktemp)
    if [ "$kind" = inproc ]; then
        timeout 600 "$JAVA25/bin/java" -Xmx6g -cp "$jar:$core" org.shmem4j.bench.InProcess -n "$n" scale \
            > "$log" 2>&1
    else
        timeout 600 bin/oshrun -n "$n" --oversubscribe -cp "$jar" org.shmem4j.bench.Main scale > "$log" 2>&1
    fi
    rc=$?
    if grep -q '^scale ' "$log"; then
        sed -n "s/^scale /$kind n=$n /p" "$log" | tee -a "$out"
    else
        echo "# $kind n=$n FAILED rc=$rc: $(tail -3 "$log" | tr '\n' ' ')" | tee -a "$out" >&2
    fi
    rm -f "$log"
}

echo "# scale $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD 2>/dev/null) $(nproc) cpus; loadavg $(cat /proc/loadavg)" | tee -a "$out"
for r in $(seq "$reps"); do
    for n in $inproc; do one_run inproc "$n"; done
    for n in $procs; do one_run oshrun "$n"; done
done
echo "# raw lines: $out"
python3 - "$out" <<'PY'
import sys, statistics
rows = {}
cols = ["init_ms", "shm_kb_pe", "rss_kb_pe", "barrier_us", "reduce8_us", "split2d_us"]
for line in open(sys.argv[1]):
    if line.startswith("#"):
        continue
    f = line.split()
    kv = dict(x.split("=", 1) for x in f[1:])
    rows.setdefault((f[0], int(kv["pes"])), []).append({c: float(kv[c]) for c in cols})
print("| kind | PEs | " + " | ".join(cols) + " |")
print("|---|---|" + "---|" * len(cols))
for (kind, n), runs in sorted(rows.items()):
    cells = []
    for c in cols:
        v = [r[c] for r in runs]
        cells.append("%.4g [%.4g-%.4g]" % (statistics.median(v), min(v), max(v)))
    print("| %s | %d | %s |" % (kind, n, " | ".join(cells)))
PY
