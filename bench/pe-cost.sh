#!/usr/bin/env bash
# bench/pe-cost.sh - what PEs cost to start and to run at several PE counts, for launcher variants
# run interleaved (variant A, B, A, B, ... at every PE count, every repeat), so that a machine
# whose load changes during the run treats them alike.
#
# Usage: bench/pe-cost.sh [NAME=LAUNCHER ...]
#   NAME=LAUNCHER   a variant: LAUNCHER is an oshrun command (split on spaces), for example
#                   before=/tmp/old/bin/oshrun  after=bin/oshrun  none="bin/oshrun --jvm-defaults=none"
#                   (default: defaults=bin/oshrun none="bin/oshrun --jvm-defaults=none")
# Knobs: PES="1 2 4 8" (PE counts), REPS=5 (repeats), ITERS=4000 (steady loop iterations),
#        GRID=160 (its grid side), OUT=file (raw lines, default a temporary file; kept).
# Per run (bin/oshrun -n N ... org.shmem4j.bench.PeCost [steady]), measured from the command's start:
#   main_ms  the last PE entered main (first user code)   init_ms  the last PE left shmem_init
#   end_ms   the job ended (start-up run: PeCost alone)   cpu_s    user+system CPU of oshrun and its PEs
#   rss_mb   mean resident memory of a PE at its end
#   warm_ms  steady run: the first ITERS/10 iterations    rate     steady run: cell updates per us of
#                                                                  all PEs over the last ITERS/2
#   cpu_ns   steady run: CPU of the PEs' processes per cell update over the last ITERS/2
# The table gives the median over the repeats of each figure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
cd "$root"
[ -f bench/target/shmem4j-bench.jar ] || bin/mvn25 -o -q -pl bench,launcher -am package -DskipTests >&2 || exit 1
jar=$(pwd)/bench/target/shmem4j-bench.jar
pes=${PES:-1 2 4 8}
reps=${REPS:-5}
iters=${ITERS:-4000}
grid=${GRID:-160}
out=${OUT:-$(mktemp /tmp/pe-cost.XXXXXX)}
variants=("$@")
[ ${#variants[@]} -eq 0 ] && variants=("defaults=bin/oshrun" "none=bin/oshrun --jvm-defaults=none")

now_us() { echo $(( $(date +%s%N) / 1000 )); }

# one_run VARIANT N KIND LAUNCHER...: appends "VARIANT n=N kind=KIND field=value ..." to $out
one_run() {
    local name=$1 n=$2 kind=$3 t0 t1 log rc
    shift 3
    log=$(mktemp)
    t0=$(now_us)
    if [ "$kind" = steady ]; then
        /usr/bin/time -f "cpu %U %S" -o "$log.time" timeout 300 "$@" -n "$n" --oversubscribe -cp "$jar" \
            org.shmem4j.bench.PeCost steady "$iters" "$grid" > "$log" 2> "$log.err"
    else
        /usr/bin/time -f "cpu %U %S" -o "$log.time" timeout 300 "$@" -n "$n" --oversubscribe -cp "$jar" \
            org.shmem4j.bench.PeCost > "$log" 2> "$log.err"
    fi
    rc=$?
    t1=$(now_us)
    if [ $rc -ne 0 ]; then
        echo "# $name n=$n $kind FAILED rc=$rc: $(tail -3 "$log.err" | tr '\n' ' ')" | tee -a "$out" >&2
    else
        awk -v name="$name" -v n="$n" -v kind="$kind" -v t0="$t0" -v t1="$t1" '
            FILENAME ~ /time$/ && $1 == "cpu" { cpu = $2 + $3 }
            $1 == "pe_cost" { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
            $1 == "pe_cost_steady" { for (i = 2; i <= NF; i++) { split($i, kv, "="); s[kv[1]] = kv[2] } }
            END {
                line = sprintf("%s n=%d kind=%s main_ms=%.0f init_ms=%.0f end_ms=%.0f cpu_s=%.2f rss_mb=%.0f", name, n, kind,
                    (v["main_us"] - t0) / 1000, (v["init_us"] - t0) / 1000, (t1 - t0) / 1000, cpu, v["rss_kb"] / 1024)
                if (kind == "steady") line = line sprintf(" warm_ms=%s rate=%s cpu_ns=%s", s["warm_ms"], s["steady_mcells_s"],
                    s["steady_cpu_ns"])
                print line
            }' "$log" "$log.time" | tee -a "$out"
    fi
    rm -f "$log" "$log.err" "$log.time"
}

echo "# pe-cost $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD 2>/dev/null) $(nproc) cpus; loadavg $(cat /proc/loadavg)" | tee -a "$out"
for v in "${variants[@]}"; do echo "# variant ${v%%=*}: ${v#*=}" | tee -a "$out"; done
for r in $(seq "$reps"); do
    for n in $pes; do
        for kind in startup steady; do
            for v in "${variants[@]}"; do
                # shellcheck disable=SC2086 # the launcher command is split on spaces on purpose
                one_run "${v%%=*}" "$n" "$kind" ${v#*=}
            done
        done
    done
done
echo "# loadavg after $(cat /proc/loadavg); raw lines in $out" | tee -a "$out"

# medians per variant, PE count and kind
awk '
    /^#/ { next }
    { key = $1 " " $2 " " $3; if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
      for (i = 4; i <= NF; i++) { split($i, kv, "="); f = kv[1]; c = ++cnt[key, f]; val[key, f, c] = kv[2]
        if (!(f in fseen)) { fseen[f] = 1; fields[++nf] = f } } }
    function median(key, f,    n, i, j, t, a) {
        n = cnt[key, f]; if (n == 0) return "-"
        for (i = 1; i <= n; i++) a[i] = val[key, f, i] + 0
        for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    END {
        printf "%-24s", "# median of runs"; for (k = 1; k <= nf; k++) printf " %9s", fields[k]; print ""
        for (o = 1; o <= nk; o++) { key = order[o]; printf "%-24s", key
            for (k = 1; k <= nf; k++) printf " %9s", median(key, fields[k]); print "" }
    }' "$out"
