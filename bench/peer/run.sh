#!/usr/bin/env bash
# peer/run.sh - build and run the OSHMEM (Open MPI) peer benchmarks.
#
# Usage: peer/run.sh [RUNS]        RUNS full passes (default 1), each written to
#                                  peer/results-<UTC date-time>.txt
#                                  (peer/results-np<N>-<...>.txt when PEER_NP is not 2)
# Knobs (environment):
#   PEER_NP=2        number of PEs (above the core count adds --oversubscribe)
#   PEER_REPS=7      timed repeats per measurement; the median is printed
#   PEER_SCALE=100   iteration counts in percent (e.g. 20 for a quick look)
#   PEER_TIMEOUT=180 seconds allowed per program
#   PEER_PROGS="put_lat ... histo ig"   the programs to build and run (default: all ten)
#   HISTO_UPDATES, HISTO_TABLE, IG_GETS, IG_TABLE   histo.c's and ig.c's sizes (see there; the
#                    PEs inherit the environment)
#   PEER_UCX_TLS=    if set, passed to the PEs as UCX_TLS (e.g. tcp,self to force
#                    the loopback TCP path instead of shared memory); the file
#                    name then carries -tls-<value>. It also sends Open MPI's own
#                    messages over tcp (--mca btl tcp,self): OSHMEM's collectives
#                    are MPI collectives over pml ob1, whose btl would otherwise be
#                    vader (shared memory) whatever UCX_TLS says (seen with
#                    --mca pml_base_verbose/btl_base_verbose: 1-long reduce at 2 PEs
#                    8.7 us over vader, 19-20 us over tcp, idle)
#   PEER_IDLE_WAIT=60 seconds to wait, before each program, for the machine to
#                    go idle (other work on the 2 cores skews every number);
#                    the CPU busy share seen just before each program is logged
# Needs: apt-get install -y openmpi-bin libopenmpi-dev (brings libucx0),
#        ucx-utils (optional, for ucx_info), gcc, python3 (for the summary).
set -u
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"

runs=${1:-1}
np=${PEER_NP:-2}
limit=${PEER_TIMEOUT:-180}
build=build
progs=${PEER_PROGS:-put_lat get_lat put_bw msgrate amo barrier coll gups histo ig}
tls=${PEER_UCX_TLS:-}
cflags="-O2 -std=gnu11 -Wall -Wextra"

for tool in oshcc oshrun gcc; do
    command -v "$tool" >/dev/null || { echo "run.sh: $tool not found (apt-get install -y openmpi-bin libopenmpi-dev)"; exit 1; }
done

mkdir -p "$build"
for p in $progs; do
    oshcc $cflags -o "$build/$p" "$p.c" || { echo "run.sh: build of $p failed"; exit 1; }
done
oshcc $cflags -o "$build/features" features.c || { echo "run.sh: build of features failed"; exit 1; }
gcc $cflags -o "$build/shm_limits" shm_limits.c || { echo "run.sh: build of shm_limits failed"; exit 1; }

# --allow-run-as-root: this machine runs everything as root.
# --mca osc ^rdma   : without it every OSHMEM program segfaults inside
#                     shmem_finalize (osc/rdma frees memory through a memory
#                     hook of an already unloaded component). See README.
oshrun=(oshrun --allow-run-as-root -np "$np" --mca osc '^rdma')
if [ "$np" -gt "$(nproc)" ]; then
    oshrun+=(--oversubscribe)
fi
if [ -n "$tls" ]; then
    oshrun+=(-x "UCX_TLS=$tls")
    case "$tls" in tcp*) oshrun+=(--mca btl tcp,self) ;; esac
fi

. "$here/idle.sh"

elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

files=()
for run in $(seq 1 "$runs"); do
    tag=""
    [ "$np" -ne 2 ] && tag="$tag-np$np"
    [ -n "$tls" ] && tag="$tag-tls-${tls//,/-}"
    out="results$tag-$(date -u +%Y%m%d-%H%M%S).txt"
    files+=("$out")
    {
        echo "# peer results, pass $run of $runs, $(date -u +%FT%TZ)"
        echo "# machine: $(nproc) cpus, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), kernel $(uname -r)"
        echo "# packages: openmpi-bin $(dpkg-query -W -f='${Version}' openmpi-bin 2>/dev/null), libucx0 $(dpkg-query -W -f='${Version}' libucx0 2>/dev/null)"
        echo "# launcher: ${oshrun[*]}"
        echo "# knobs: PEER_REPS=${PEER_REPS:-7} PEER_SCALE=${PEER_SCALE:-100} $(env | grep -E '^(HISTO_|IG_)' | sort | tr '\n' ' ')"
        echo "# loadavg before: $(cat /proc/loadavg)"
        # which UCX transports the endpoints picked (rma = put/get, amo = atomics)
        PEER_SCALE=1 PEER_REPS=1 timeout 60 "${oshrun[@]}" -x UCX_LOG_LEVEL=info "$build/barrier" 2>&1 \
            | grep -o 'ep_cfg\[[0-9]*\]: .*' | sort -u | sed 's/^/# ucx /'
        timeout 60 "${oshrun[@]}" "$build/features" 2>/dev/null
    } > "$out"

    run_one() {   # name, command...
        local name=$1; shift
        local busy; busy=$(wait_idle "${PEER_IDLE_WAIT:-60}")
        local t0; t0=$(date +%s.%N)
        timeout "$limit" "$@" >> "$out" 2> "$build/$name.err"
        local rc=$?
        echo "# $name rc=$rc seconds=$(elapsed "$t0") cpu_busy_before=${busy}%" >> "$out"
        if [ "$rc" -ne 0 ]; then
            echo "# $name FAILED: $(grep -v '^$' "$build/$name.err" | tail -3 | tr '\n' ' ')" >> "$out"
        fi
    }

    run_one shm_limits_start "$build/shm_limits" start
    for p in $progs; do
        run_one "$p" "${oshrun[@]}" "$build/$p"
    done
    run_one shm_limits_end "$build/shm_limits" end
    echo "# loadavg after: $(cat /proc/loadavg)" >> "$out"
    echo "run.sh: wrote peer/$out"
    sleep 1   # distinct file names
done

if command -v python3 >/dev/null; then
    python3 summarize.py "${files[@]}"
fi
