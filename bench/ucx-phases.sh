#!/usr/bin/env bash
# bench/ucx-phases.sh - where one blocking 8-byte get (or fetch-add) over UCX spends its round trip,
# for the C peer and for shmem4j on the same path (2 PEs, UCX over tcp: the C peer with
# UCX_TLS=tcp, shmem4j on 2 pseudo-nodes), in interleaved passes.
#
# Usage: bench/ucx-phases.sh [get|amo] [PASSES]      (default: get 3)
# perf's uprobes on libucp time four points of every operation in a 2-second window of the
# program's 8-byte loop (get_lat's, amo's fetch-add): the initiator's call (ucp_get_nbx or
# ucp_atomic_op_nbx) and its return, the target's request handler's entry and return. A line per
# pass and side gives the medians (us) of
#   post     the initiator's call: packing and the tcp send (on loopback the kernel delivers the
#            bytes to the target's socket within that send)
#   reach    the call's return to the target's handler: how soon the target polls its worker
#   handler  the target's handler: the reply's send included
#   back     the handler's return to the initiator's next call: how soon the initiator sees the
#            reply, plus its own loop
#   cycle    one operation to the next (the probes add a few us to every phase)
# post and handler run the same UCX code on both sides; reach and back are each side's polling.
# Knobs: C_DELAY=4 JAVA_DELAY=25 (seconds from start until the 8-byte loop runs hot), UCP_LIB
# (default: found by ldconfig). Needs root, perf with uprobes, oshcc/oshrun (the C peer) and a
# build of the benchmarks (bench/run.sh builds them).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
op=${1:-get}
passes=${2:-3}
case $op in
get) call=ucp_get_nbx handler=ucp_get_req_handler cprog=get_lat jprog=get_lat ;;
amo) call=ucp_atomic_op_nbx handler=ucp_atomic_req_handler cprog=amo jprog=amo ;;
*) echo "ucx-phases.sh: op must be get or amo, not '$op'" >&2; exit 2 ;;
esac
for tool in perf oshcc oshrun python3; do
    command -v "$tool" >/dev/null || { echo "ucx-phases.sh: $tool not found" >&2; exit 1; }
done
lib=${UCP_LIB:-$(ldconfig -p | awk '/libucp\.so\.0 / {print $NF; exit}')}
[ -f "$lib" ] || { echo "ucx-phases.sh: libucp not found (set UCP_LIB)" >&2; exit 1; }

work=$(mktemp -d /tmp/shmem4j-phases.XXXXXX)
probes=()
cleanup() {
    [ ${#probes[@]} -gt 0 ] && perf probe -q -d 'probe_libucp:shmem4j_*' >/dev/null 2>&1
    pkill -f "$work/$cprog" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
oshcc -O2 -std=gnu11 -o "$work/$cprog" "$here/peer/$cprog.c" || { echo "ucx-phases.sh: build of $cprog failed" >&2; exit 1; }
for f in "$call" "$handler"; do # perf names a return probe <name>__return
    for p in "$f" "$f%return"; do
        perf probe -q -x "$lib" -a "shmem4j_$f=$p" >/dev/null 2>&1 || { echo "ucx-phases.sh: perf probe $p in $lib failed" >&2; exit 1; }
    done
    probes+=("probe_libucp:shmem4j_$f" "probe_libucp:shmem4j_${f}__return")
done
events=$(IFS=,; echo "${probes[*]}")

# One side's window: prints the medians.
measure() {
    local side=$1 pid
    if [ "$side" = C ]; then
        PEER_SCALE=3000 PEER_REPS=3 timeout 120 oshrun --allow-run-as-root -np 2 --mca osc '^rdma' \
            -x UCX_TLS=tcp,self --mca btl tcp,self "$work/$cprog" >/dev/null 2>&1 &
        pid=$!
        sleep "${C_DELAY:-4}"
    else
        (cd "$root" && NODES=2 NP=2 PEER_SCALE=3000 PEER_REPS=3 BENCH_IDLE_WAIT=0 timeout 200 bench/run.sh "$jprog") >/dev/null 2>&1 &
        pid=$!
        sleep "${JAVA_DELAY:-25}"
    fi
    perf record -q -o "$work/perf.data" -e "$events" -a -- sleep 2 >/dev/null 2>&1
    pkill -P "$pid" 2>/dev/null; kill "$pid" 2>/dev/null
    pkill -f "$work/$cprog" 2>/dev/null; pkill -f 'org.shmem4j.bench' 2>/dev/null
    wait "$pid" 2>/dev/null
    perf script --ns -i "$work/perf.data" 2>/dev/null | python3 -c '
import re, sys
call, handler = sys.argv[1], sys.argv[2]
last, phases = {}, {"post": [], "reach": [], "handler": [], "back": [], "cycle": []}
for line in sys.stdin:
    m = re.search(r"\s([\d.]+):\s+probe_libucp:shmem4j_(\w+):", line)
    if not m:
        continue
    t, name = float(m.group(1)) * 1e6, m.group(2)
    if name == call:
        if "handler_end" in last and "call" in last:
            phases["back"].append(t - last["handler_end"])
            phases["cycle"].append(t - last["call"])
        last = {"call": t}
    elif name == call + "__return" and "call" in last:
        phases["post"].append(t - last["call"]); last["posted"] = t
    elif name == handler and "posted" in last:
        phases["reach"].append(t - last["posted"]); last["handler"] = t
    elif name == handler + "__return" and "handler" in last:
        phases["handler"].append(t - last["handler"]); last["handler_end"] = t
def median(v):
    v = sorted(v)
    return "%.2f" % v[len(v) // 2] if v else "none"
print(" ".join("%s_us=%s" % (k, median(v)) for k, v in phases.items()), "ops=%d" % len(phases["cycle"]))
' "$call" "$handler"
}

for pass in $(seq 1 "$passes"); do
    for side in C Java; do
        echo "ucx_phases op=$op side=$side pass=$pass $(measure $side)"
    done
done
