#!/usr/bin/env bash
# bench/compare-apps.sh - the application kernels (bench/src/main/java/org/shmem4j/bench/apps) and
# their C twins (bench/c/apps, over the C peer's OpenSHMEM), run interleaved: for every pass, kernel
# and PE count, C then Java; at one PE also Java on plain Java arrays (--plain: no library). Prints
# the rates, Java/C ratios and a summary table (bench/apps-summary.py) and keeps the raw lines; a
# kernel's rate over all timed iterations and over their last half (KERNEL_steady) get rows apart.
#
# Usage: bench/compare-apps.sh [PASSES]          (default 3)
# Knobs: APPS="stencil transpose p2p isx", PES="1 2 4", and per kernel its arguments:
#   STENCIL_ARGS="100 2000" (iterations, n)   TRANSPOSE_ARGS="10 2048" (iterations, order)
#   P2P_ARGS="20 4000 4000" (iterations, m, n)   ISX_ARGS="10 4194304" (iterations, keys per PE)
#   BENCH_JVM_OPTS (JVM options of every Java PE), CFLAGS (default -O3 -ffast-math),
#   APPS_TIMEOUT=60 (seconds per run), SHMEM_SYMMETRIC_SIZE (default 512m, both sides).
# Writes peer-results/apps-<stamp>.txt (raw lines) and peer-results/apps-<stamp>.md (tables).
# Needs: oshcc and oshrun (apt-get install -y openmpi-bin libopenmpi-dev) for the C side; without
# them the C twins are not built and only the Java rows are measured (said in a '# WARNING' line).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
cd "$root"

passes=${1:-3}
apps=${APPS:-stencil transpose p2p isx}
pes=${PES:-1 2 4}
limit=${APPS_TIMEOUT:-60}
export SHMEM_SYMMETRIC_SIZE=${SHMEM_SYMMETRIC_SIZE:-512m}
declare -A args=([stencil]=${STENCIL_ARGS:-100 2000} [transpose]=${TRANSPOSE_ARGS:-10 2048}
                 [p2p]=${P2P_ARGS:-20 4000 4000} [isx]=${ISX_ARGS:-10 4194304})
jvm_opts=${BENCH_JVM_OPTS:--XX:+UseSerialGC -Xms1g -Xmx1g -XX:+AlwaysPreTouch}
cp=bench/target/shmem4j-bench.jar:core/target/shmem4j.jar

mkdir -p peer-results
stamp=$(date -u +%Y%m%d-%H%M%S)
out=peer-results/apps-$stamp.txt
: > "$out"
note() { echo "$*" | tee -a "$out" >&2; }

echo "compare-apps.sh: building core, launcher and bench" >&2
bin/mvn25 -q -o -pl bench,launcher -am package -DskipTests >&2 \
    || bin/mvn25 -q -pl bench,launcher -am package -DskipTests >&2 \
    || { echo "compare-apps.sh: build failed" >&2; exit 1; }

have_c=yes
for tool in oshcc oshrun; do
    command -v "$tool" >/dev/null || have_c=""
done
cbuild=bench/target/c-apps
if [ -n "$have_c" ]; then
    mkdir -p "$cbuild"
    for a in $apps; do
        oshcc ${CFLAGS:--O3 -ffast-math} -o "$cbuild/$a" "bench/c/apps/$a.c" -lm \
            || { echo "compare-apps.sh: building the C twin $a failed" >&2; exit 1; }
    done
else
    note "# WARNING: no oshcc/oshrun (apt-get install -y openmpi-bin libopenmpi-dev): C twins not run"
fi
note "# compare-apps.sh $passes passes, PES=$pes, CFLAGS=${CFLAGS:--O3 -ffast-math}, JVM: $jvm_opts, $(nproc) cores, $(date -u +%FT%TZ)"

# one run; its result and comment lines go to the results file, a failure is noted there
run() {
    local what=$1; shift
    local log
    log=$(timeout "$limit" "$@" 2>&1)
    local status=$?
    grep -E '^[a-z0-9_]+ impl=|^# ' <<<"$log" | tee -a "$out"
    if [ $status -ne 0 ]; then
        note "# $what FAILED (status $status): $(tail -3 <<<"$log" | tr '\n' ' ')"
        failed=1
    fi
}

failed=0
for pass in $(seq 1 "$passes"); do
    for a in $apps; do
        for np in $pes; do
            over=()
            [ "$np" -gt "$(nproc)" ] && over=(--oversubscribe)
            echo "compare-apps.sh: pass $pass of $passes: $a at $np PEs" >&2
            if [ -n "$have_c" ]; then
                run "C $a np=$np" oshrun --allow-run-as-root -np "$np" "${over[@]}" --mca osc '^rdma' \
                    -x SHMEM_SYMMETRIC_SIZE "$cbuild/$a" ${args[$a]}
            fi
            run "Java $a np=$np" bin/oshrun -n "$np" "${over[@]}" $jvm_opts -cp "$cp" org.shmem4j.bench.apps.Apps $a ${args[$a]}
            if [ "$a" = stencil ]; then
                run "Java --vector $a np=$np" bin/oshrun -n "$np" "${over[@]}" $jvm_opts --add-modules jdk.incubator.vector \
                    -cp "$cp" org.shmem4j.bench.apps.Apps $a --vector ${args[$a]}
            fi
            if [ "$np" -eq 1 ]; then
                run "Java --plain $a" bin/oshrun -n 1 $jvm_opts -cp "$cp" org.shmem4j.bench.apps.Apps $a --plain ${args[$a]}
            fi
        done
    done
done
python3 bench/apps-summary.py "$out" | tee "peer-results/apps-$stamp.md"
[ "$failed" -eq 0 ] || echo "compare-apps.sh: some run failed: see the FAILED lines in $out" >&2
exit $failed
