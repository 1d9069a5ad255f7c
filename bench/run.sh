#!/usr/bin/env bash
# bench/run.sh - build (if needed) and run the shmem4j benchmarks, the Java counterparts of the
# C peer's programs (bench/peer), printing the same lines so bench/peer/compare.py pairs them.
#
# Usage: bench/run.sh [--format lines|table|csv] [PROGRAM ...]
#        bench/run.sh --format table|csv --input FILE ...   (re-format saved results, run nothing)
#   --format lines (default): one line per measurement, 'name key=value ... unit=value', the format
#            bench/peer/compare.py and bench/plot.sh read; table: OSU-style tables, one per
#            benchmark ('# Size  Latency (us)'), printed when the run ends (comments as they come);
#            csv: benchmark, a column per parameter, unit, value. FORMAT=... does the same.
#   PROGRAM: put_lat get_lat put_bw msgrate amo barrier coll gups histo ig
#                                       team_create msgrate_threads (default: these twelve, the C peer's
#                                       first, in its order), or
#                                       batch_lat (no C peer): the round trip of a lone add in a
#                                       SESSION_BATCH session against plain (bench/batch-sweep.sh), or
#                                       reduce_algo / reduce_algo_hosts (no C peer): the teams paper's
#                                       figure-4 float sum reduce, one job per reduce algorithm of
#                                       the catalog (SHMEM_REDUCE_ALGORITHM=<name>, 'auto' included);
#                                       reduce_algo_hosts runs it two-level on 2 pseudo-hosts
#                                       (oshrun --hosts 2), skipped with a comment if oshrun lacks it
# Results go to stdout ('#' lines are comments); redirect to a file to keep them.
# Knobs (environment):
#   NP=2                PEs (bin/oshrun -n)
#   PEER_REPS=7         timed repeats per measurement (median printed), as the C peer
#   PEER_SCALE=100      iteration counts in percent, as the C peer
#   BENCH_WARMUP_SCALE  untimed warm-up as a multiple of the C warm-up (default 1 in the
#                       programs); also -Dbench.warmup.scale
#   BENCH_JIT_WARMUP=1  warm-up at least 50000 ops (512 MiB at most) so the JIT reaches C2 even at small
#                       PEER_SCALE; 0 (with BENCH_WARMUP_SCALE=1) = exactly the C warm-up
#   BENCH_JVM_OPTS      JVM options for every PE (default below)
#   BENCH_TIMEOUT=300   seconds allowed per program
#   BENCH_IDLE_WAIT=60  seconds to wait, before each program, for the machine to go idle (<10% busy);
#                       the busy share seen is logged (as the C peer's run.sh does)
#   HISTO_UPDATES=131072 HISTO_TABLE=1000   histo's updates per PE per repeat (times PEER_SCALE %) and
#                       table entries per PE; IG_GETS=16384 IG_TABLE=100000 the same for ig (both sides
#                       read them; bench/peer/run.sh passes the environment on)
#   COLL_KINDS=fcollect,bcast COLL_SIZES=1024,1,1024   coll's kinds (reduce bcast fcollect alltoall) and
#                       element counts, in that order (default all, 1 1024 65536): a row's figure
#                       depends on what ran before it in the job
#   SHMEM_BATCH_BYTES, SHMEM_BATCH_ALL   the library's batching knobs (issue 26), passed through
#   NODES=K             spread the PEs over K pseudo-nodes (oshrun --nodes K): peers of other nodes
#                       are reached through the network engine (UCX over tcp), and every result
#                       line gets a path=ucx field before its value (put the same field into the C
#                       peer's lines run with PEER_UCX_TLS=tcp to pair them in compare.py)
# Launcher: bin/oshrun (PEs are JVM processes). If bin/oshrun does not exist yet, the programs run
# in-process (PEs as threads of one JVM, org.shmem4j.bench.InProcess) and a '# WARNING' line says so:
# those figures are indicative only.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
cd "$root"

format=${FORMAT:-lines}
inputs=()
while [ $# -gt 0 ]; do
    case "$1" in
    --format) [ $# -ge 2 ] || { echo "bench/run.sh: --format needs lines, table or csv" >&2; exit 2; }
        format=$2; shift 2 ;;
    --format=*) format=${1#--format=}; shift ;;
    --input) shift; inputs=("$@"); set --
        [ ${#inputs[@]} -gt 0 ] || { echo "bench/run.sh: --input needs files" >&2; exit 2; } ;;
    *) break ;;
    esac
done
case "$format" in
lines|table|csv) ;;
*) echo "bench/run.sh: unknown format '$format' (lines, table or csv)" >&2; exit 2 ;;
esac

np=${NP:-2}
limit=${BENCH_TIMEOUT:-300}
progs=("$@")
[ ${#progs[@]} -eq 0 ] && progs=(put_lat get_lat put_bw msgrate amo barrier coll gups histo ig team_create msgrate_threads)
# Serial GC and a fixed, pre-touched heap: the programs allocate nothing in their timed loops,
# so the collector only has to stay out of the way; the big buffers are native (Arena) memory.
jvm_opts=${BENCH_JVM_OPTS:--XX:+UseSerialGC -Xms256m -Xmx256m -XX:+AlwaysPreTouch}
. "$here/jars.sh"
cp="$jar:$core"
build_if_stale bench/run.sh

# JAVA25 for the tools run outside the job (the report tool, the reduce catalog query)
need_jdk() {
    if [ -z "${JAVA25:-}" ]; then
        . bin/jdk25.sh
        find_jdk25 || exit 1
    fi
}

# the report tool between the programs and stdout, for --format table|csv
report() {
    need_jdk
    "$JAVA25/bin/java" -cp "$jar" org.shmem4j.bench.report.Report "$@"
}
if [ ${#inputs[@]} -gt 0 ]; then
    [ "$format" != lines ] || { echo "bench/run.sh: --input needs --format table or csv" >&2; exit 2; }
    report "$format" "${inputs[@]}"
    exit
fi

nodes=${NODES:-1}
if [ -x bin/oshrun ] && [ "$nodes" -gt 1 ]; then
    launch=(bin/oshrun -n "$np" --nodes "$nodes" $jvm_opts -cp "$cp" org.shmem4j.bench.Main)
    mode="processes (bin/oshrun) on $nodes pseudo-nodes, path=ucx"
elif [ -x bin/oshrun ]; then
    launch=(bin/oshrun -n "$np" $jvm_opts -cp "$cp" org.shmem4j.bench.Main)
    mode="processes (bin/oshrun)"
else
    . bin/jdk25.sh
    find_jdk25
    launch=("$JAVA25/bin/java" $jvm_opts -cp "$cp" org.shmem4j.bench.InProcess -n "$np")
    mode="in-process threads (bin/oshrun not found)"
fi

. "$here/peer/idle.sh"

# on pseudo-nodes, "name k=v ... unit=value" becomes "name k=v ... path=ucx unit=value"
mark_path() {
    if [ "$nodes" -gt 1 ]; then
        awk '/^#/ || NF < 2 { print; fflush(); next } { $NF = "path=ucx " $NF; print; fflush() }'
    else
        cat
    fi
}

# run_one LABEL PROGRAM [LAUNCHER ARG ...]: one job (the launcher args go before the JVM options)
run_one() {
    local label=$1 prog=$2 busy t0 rc secs
    shift 2
    busy=$(wait_idle "${BENCH_IDLE_WAIT:-60}")
    t0=$(date +%s.%N)
    if [ $# -gt 0 ]; then
        timeout "$limit" "${launch[0]}" "$@" "${launch[@]:1}" "$prog" 2> "$errlog" | mark_path
    else
        timeout "$limit" "${launch[@]}" "$prog" 2> "$errlog" | mark_path
    fi
    rc=${PIPESTATUS[0]}
    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    echo "# $label rc=$rc seconds=$secs cpu_busy_before=${busy}%"
    if [ "$rc" -ne 0 ]; then
        echo "# $label FAILED: $(grep -v '^$' "$errlog" | tail -3 | tr '\n' ' ')"
        cat "$errlog" >&2
        status=1
    fi
}

# the reduce algorithms the library has (the catalog's names, 'auto' first)
reduce_names() {
    need_jdk
    "$JAVA25/bin/java" -cp "$cp" org.shmem4j.bench.ReduceAlgo --names
}

# every program in turn, the result lines (and '#' comments) on stdout; returns 1 if one failed
run_programs() {
    echo "# shmem4j bench results, $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD 2>/dev/null)"
    echo "# machine: $(nproc) cpus, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), kernel $(uname -r)"
    echo "# launcher: ${launch[*]} PROGRAM"
    [ -x bin/oshrun ] || echo "# WARNING: PEs are threads of one JVM, not processes: figures are indicative only"
    echo "# mode: $mode"
    echo "# knobs: NP=$np PEER_REPS=${PEER_REPS:-7} PEER_SCALE=${PEER_SCALE:-100} BENCH_WARMUP_SCALE=${BENCH_WARMUP_SCALE:-1} BENCH_JIT_WARMUP=${BENCH_JIT_WARMUP:-1}"
    echo "# sizes and batching: $(env | grep -E '^(HISTO_|IG_|SHMEM_BATCH_)' | sort | tr '\n' ' ')(unset: defaults)"
    echo "# loadavg before: $(cat /proc/loadavg)"

    status=0
    errlog=$(mktemp)
    for p in "${progs[@]}"; do
        case "$p" in
        reduce_algo|reduce_algo_hosts)
            hosts=()
            if [ "$p" = reduce_algo_hosts ]; then
                if [ -x bin/oshrun ] && bin/oshrun --help 2>&1 | grep -q -- '--hosts'; then
                    hosts=(--hosts 2)
                else
                    echo "# $p skipped: bin/oshrun has no --hosts option (pseudo-hosts), so no mode=host_leaders lines"
                    continue
                fi
            fi
            names=$(reduce_names) || { echo "# $p FAILED: could not list the reduce algorithms"; status=1; continue; }
            echo "# $p algorithms: $(echo $names)"
            for name in $names; do
                SHMEM_REDUCE_ALGORITHM=$name run_one "$p algo=$name" "$p" "${hosts[@]}"
            done
            ;;
        *)
            run_one "$p" "$p"
            ;;
        esac
    done
    rm -f "$errlog"
    echo "# loadavg after: $(cat /proc/loadavg)"
    return $status
}

if [ "$format" = lines ]; then
    run_programs
    exit
fi
run_programs | report "$format"
codes=("${PIPESTATUS[@]}")
[ "${codes[1]}" -eq 0 ] || exit "${codes[1]}"
exit "${codes[0]}"
