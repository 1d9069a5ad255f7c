#!/usr/bin/env bash
# bench/batch-sweep.sh - the batching sessions of issue 26 by batch size: runs histo in its session
# mode (HISTO_MODES=session) on 2 pseudo-nodes (PEs of different nodes talk over UCX) once per
# SHMEM_BATCH_BYTES setting, the settings interleaved in every pass, and prints per setting the
# median, min and max over the passes of each rate; with batch_lat too (SWEEP_LAT=1, the default),
# the round trip of a lone add in a session, which shows what a batch adds to an operation's latency.
#
# Usage: bench/batch-sweep.sh [PASSES]       (default 3)
# Knobs (environment):
#   SWEEP_BYTES="0 256 1024 4096 8192"   the SHMEM_BATCH_BYTES settings (0: no batching)
#   SWEEP_LAT=1          also run batch_lat (0: histo only)
#   NP=2 NODES=2         PEs and pseudo-nodes (bench/run.sh's knobs)
#   PEER_REPS=3          repeats per program run (histo takes at most 3)
#   BENCH_IDLE_WAIT=10   seconds each program may wait for the machine to go idle
#   HISTO_UPDATES, HISTO_TABLE, SHMEM_BATCH_ALL, ...   passed through to bench/run.sh and the PEs
# Writes peer-results/batch-sweep-<stamp>/b<bytes>-<pass>.txt (bench/run.sh's lines) and
# peer-results/batch-sweep-<stamp>.md (the table printed).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
cd "$root"

passes=${1:-3}
sizes=${SWEEP_BYTES:-0 256 1024 4096 8192}
progs=(histo)
[ "${SWEEP_LAT:-1}" = 0 ] || progs+=(batch_lat)
export NP=${NP:-2} NODES=${NODES:-2} PEER_REPS=${PEER_REPS:-3} BENCH_IDLE_WAIT=${BENCH_IDLE_WAIT:-10}
export HISTO_MODES=session

stamp=$(date -u +%Y%m%d-%H%M%S)
dir=peer-results/batch-sweep-$stamp
mkdir -p "$dir"
failed=0
for i in $(seq 1 "$passes"); do
    for b in $sizes; do
        echo "batch-sweep.sh: pass $i of $passes: SHMEM_BATCH_BYTES=$b" >&2
        SHMEM_BATCH_BYTES=$b bench/run.sh "${progs[@]}" > "$dir/b$b-$i.txt" || failed=1
        grep -h 'FAILED' "$dir/b$b-$i.txt" >&2
    done
done

python3 - "$dir" "$passes" $sizes <<'EOF' | tee "$dir.md"
import glob, os, statistics, sys

folder, passes, sizes = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = {}       # measurement -> {bytes: [values]}
units = {}
for b in sizes:
    for path in sorted(glob.glob(os.path.join(folder, f"b{b}-*.txt"))):
        for line in open(path):
            parts = line.split()
            if not parts or parts[0].startswith("#") or "=" not in parts[-1]:
                continue
            unit, _, value = parts[-1].partition("=")
            name = " ".join(p for p in parts[:-1] if p != "path=ucx")
            units[name] = unit
            rows.setdefault(name, {}).setdefault(b, []).append(float(value))
print(f"# batch-sweep.sh: {passes} passes, NP={os.environ['NP']} NODES={os.environ['NODES']} "
      f"PEER_REPS={os.environ['PEER_REPS']}, each cell: median (min-max) over the passes")
print()
names = sorted(rows)
print("| SHMEM_BATCH_BYTES | " + " | ".join(f"{n} ({units[n]})" for n in names) + " |")
print("|---:|" + "---:|" * len(names))
for b in sizes:
    cells = []
    for n in names:
        v = rows[n].get(b, [])
        cells.append(f"{statistics.median(v):.3f} ({min(v):.3f}-{max(v):.3f})" if v else "-")
    print(f"| {b} | " + " | ".join(cells) + " |")
EOF
[ "$failed" -eq 0 ] || echo "batch-sweep.sh: some run failed: see the '# ... FAILED' lines in $dir/" >&2
exit $failed
