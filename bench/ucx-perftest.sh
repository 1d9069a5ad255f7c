#!/usr/bin/env bash
# bench/ucx-perftest.sh - UCX's own ucx_perftest over the path shmem4j's pseudo-nodes use (UCX over
# tcp on this machine), printed as bench lines, so the network engine's figures (bench/run.sh with
# NODES=2) can be read beside what UCX itself reaches on the same path.
#
# Usage: bench/ucx-perftest.sh [PASSES]      (default 1; each pass runs every test once)
# Prints, per test and size:  ucx_perftest op=<test> bytes=<n> path=ucx us=<typical latency>
# (ping-pong tests, put_lat and tag_lat, report half a round trip as bench/run.sh's put_lat does; the
# atomics the whole operation, as amo_lat does) and, for the bandwidth test, MBps=. The get test is
# printed as a comment: its server never progresses, so over tcp it measures UCX's async thread.
# Knobs: UCX_NET_DEVICES (default lo), PERFTEST_ITERS (20000), PERFTEST_PORT (13337).
# Needs: ucx_perftest (apt-get install -y ucx-utils).
set -u
command -v ucx_perftest >/dev/null || { echo "ucx-perftest.sh: ucx_perftest not found (apt-get install -y ucx-utils)" >&2; exit 1; }
passes=${1:-1}
iters=${PERFTEST_ITERS:-20000}
port=${PERFTEST_PORT:-13337}
export UCX_TLS=tcp UCX_NET_DEVICES=${UCX_NET_DEVICES:-lo}

# One server/client pair; prints the client's "Final:" columns: iterations, typical, average and
# overall latency (us), average and overall bandwidth (MB/s), average and overall rate (msg/s).
run_pair() {
    local test=$1 size=$2
    timeout 120 ucx_perftest -t "$test" -s "$size" -n "$iters" -p "$port" >/dev/null 2>&1 &
    local server=$!
    local out=""
    for _ in $(seq 1 50); do # the server needs a moment to listen; the client fails fast until it does
        out=$(timeout 120 ucx_perftest 127.0.0.1 -t "$test" -s "$size" -n "$iters" -p "$port" 2>/dev/null | grep '^Final:') && break
        sleep 0.1
    done
    wait "$server" 2>/dev/null
    [ -n "$out" ] || { echo "# ucx_perftest op=$test bytes=$size FAILED" ; return; }
    set -- $out
    case $test in
        ucp_put_bw) echo "ucx_perftest op=$test bytes=$size path=ucx MBps=$6" ;;
        # ucx_perftest's server does not progress its worker during a get test, so over tcp each
        # get waits for UCX's async thread (about 1.1 ms here): a comment, not a floor to compare with
        ucp_get) echo "# ucx_perftest op=$test bytes=$size path=ucx us=$3 (server not progressing: not a floor)" ;;
        *) echo "ucx_perftest op=$test bytes=$size path=ucx us=$3" ;;
    esac
}

echo "# ucx-perftest.sh: ucx_perftest $(ucx_info -v 2>/dev/null | sed -n 's/^# Version //p'), UCX_TLS=$UCX_TLS UCX_NET_DEVICES=$UCX_NET_DEVICES, $iters iterations, $(date -u +%FT%TZ)"
for _ in $(seq 1 "$passes"); do
    for size in 8 4096 1048576; do
        run_pair ucp_put_lat "$size"
        run_pair ucp_get "$size"
    done
    run_pair ucp_put_bw 1048576
    run_pair ucp_fadd 8
    run_pair ucp_swap 8
    run_pair ucp_cswap 8
    run_pair tag_lat 8
done
