#!/usr/bin/env bash
# bench/compare-with-peer.sh - run the C peer (Open MPI OSHMEM) and the shmem4j benchmarks in
# interleaved passes (C, Java, C, Java, ...) and print peer/compare.py's table.
#
# Usage: bench/compare-with-peer.sh [PASSES]     (default 3)
# Writes peer-results/c-<stamp>-<i>.txt, peer-results/java-<stamp>-<i>.txt,
# peer-results/compare-<stamp>.md and, when gnuplot is installed, the figures of bench/plot.sh in
# peer-results/plots-<stamp>/ (peer-results/ is git-ignored).
# Knobs: NP (or PEER_NP, default 2), PEER_REPS, PEER_SCALE (both sides); PROGS="histo ig gups"
# (the programs of both sides, default all: a Java-only name is just not run on the C side);
# PEER_DIR (the C peer's folder, default bench/peer; it is copied to a temporary directory because its run.sh writes
# results and build/ next to itself); the knobs of bench/run.sh and bench/peer/run.sh. Needs: oshcc and oshrun (apt-get install -y openmpi-bin libopenmpi-dev), gcc, python3.
# NODES=K (K > 1) compares the network path: the Java PEs on K pseudo-nodes (UCX over tcp), the C
# peer's PEs forced onto UCX's tcp transport (PEER_UCX_TLS, default tcp,self) and its MPI-based
# collectives onto Open MPI's tcp btl (bench/peer/run.sh), both sides' lines marked
# path=ucx; each pass also runs bench/ucx-perftest.sh (UCX's own ucx_perftest) when ucx_perftest exists
# (PERFTEST=0: not; a UCX_ name would make UCX warn of an unused variable).
# BASELINE=DIR: another checkout of shmem4j (built: bench/run.sh there must work), run in every pass
# too (C, baseline, this build): the report then holds three tables, this build against C, the
# baseline against C, and this build against the baseline (before/after tables on the same noise).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
cd "$root"

passes=${1:-3}
np=${NP:-${PEER_NP:-2}}
export NP=$np PEER_NP=$np
peer_src=${PEER_DIR:-$here/peer}
[ -f "$peer_src/run.sh" ] || { echo "compare-with-peer.sh: no C peer at $peer_src (set PEER_DIR)" >&2; exit 1; }
for tool in oshcc oshrun gcc python3; do
    command -v "$tool" >/dev/null || {
        echo "compare-with-peer.sh: $tool not found (apt-get install -y openmpi-bin libopenmpi-dev)" >&2; exit 1; }
done

work=$(mktemp -d /tmp/shmem4j-peer.XXXXXX)
trap 'rm -rf "$work"' EXIT
cp -r "$peer_src/." "$work/"
rm -f "$work"/results-*.txt          # only this run's C results are wanted
rm -rf "$work/build"

# PROGS: the Java side runs them all, the C side those it has (a C program per name in the peer's folder)
jprogs=${PROGS:-}
cprogs=""
for p in $jprogs; do
    [ -f "$work/$p.c" ] && cprogs="$cprogs $p"
done
cprogs=${cprogs# }
if [ -n "$jprogs" ] && [ -z "$cprogs" ]; then
    echo "compare-with-peer.sh: the C peer has none of PROGS='$jprogs'" >&2; exit 1
fi

nodes=${NODES:-1}
if [ "$nodes" -gt 1 ]; then
    export NODES=$nodes PEER_UCX_TLS=${PEER_UCX_TLS:-tcp,self}
    # the C peer's collectives run over MPI: keep its byte transfer layer off shared memory too
    export OMPI_MCA_btl=${OMPI_MCA_btl:-self,tcp}
fi
# the C side's result lines, marked like bench/run.sh marks its own on pseudo-nodes
mark_c_path() {
    if [ "$nodes" -gt 1 ]; then
        awk '/^#/ || NF < 2 { print; next } { $NF = "path=ucx " $NF; print }' "$1" > "$1.tmp" && mv "$1.tmp" "$1"
    fi
}

mkdir -p peer-results
stamp=$(date -u +%Y%m%d-%H%M%S)
cfiles=() jfiles=() ufiles=() bfiles=()
baseline=${BASELINE:-}
if [ -n "$baseline" ]; then
    baseline=$(cd "$baseline" && pwd) || exit 1
    [ -x "$baseline/bench/run.sh" ] || { echo "compare-with-peer.sh: no bench/run.sh in BASELINE=$baseline" >&2; exit 1; }
fi
failed=0
for i in $(seq 1 "$passes"); do
    echo "compare-with-peer.sh: pass $i of $passes: C" >&2
    (cd "$work" && PEER_PROGS="$cprogs" ./run.sh 1) > "peer-results/c-$stamp-$i.log" 2>&1 || failed=1
    newest=$(ls -t "$work"/results-*.txt 2>/dev/null | head -1)
    if [ -z "$newest" ]; then
        echo "compare-with-peer.sh: the C peer wrote no results (see peer-results/c-$stamp-$i.log)" >&2
        exit 1
    fi
    mv "$newest" "peer-results/c-$stamp-$i.txt"
    mark_c_path "peer-results/c-$stamp-$i.txt"
    cfiles+=("peer-results/c-$stamp-$i.txt")

    if [ "$nodes" -gt 1 ] && [ "${PERFTEST:-1}" != 0 ] && command -v ucx_perftest >/dev/null; then # UCX's own figures on the same path
        echo "compare-with-peer.sh: pass $i of $passes: ucx_perftest" >&2
        bench/ucx-perftest.sh > "peer-results/ucx-$stamp-$i.txt" || failed=1
        ufiles+=("peer-results/ucx-$stamp-$i.txt")
    fi

    if [ -n "$baseline" ]; then
        echo "compare-with-peer.sh: pass $i of $passes: Java baseline ($baseline)" >&2
        (cd "$baseline" && bench/run.sh $jprogs) > "peer-results/baseline-$stamp-$i.txt" || failed=1
        bfiles+=("peer-results/baseline-$stamp-$i.txt")
    fi
    echo "compare-with-peer.sh: pass $i of $passes: Java" >&2
    bench/run.sh $jprogs > "peer-results/java-$stamp-$i.txt" || failed=1
    jfiles+=("peer-results/java-$stamp-$i.txt")
done

{
    echo "# compare-with-peer.sh $passes passes, NP=$np NODES=$nodes PEER_UCX_TLS=${PEER_UCX_TLS:-} PEER_REPS=${PEER_REPS:-7} PEER_SCALE=${PEER_SCALE:-100}, $(date -u +%FT%TZ)"
    grep -h '^# WARNING' "${jfiles[@]}" | sort -u
    echo
    python3 "$work/compare.py" --java "${jfiles[@]}" --c "${cfiles[@]}"
    if [ -n "$baseline" ]; then
        echo
        echo "The baseline ($baseline, $(git -C "$baseline" log -1 --format=%h 2>/dev/null)) against C:"
        echo
        python3 "$work/compare.py" --java "${bfiles[@]}" --c "${cfiles[@]}" --names baseline C
        echo
        echo "This build ($(git log -1 --format=%h 2>/dev/null)$(git diff --quiet HEAD 2>/dev/null || echo ', modified')) against the baseline:"
        echo
        python3 "$work/compare.py" --java "${jfiles[@]}" --c "${bfiles[@]}" --names new baseline
    fi
    if [ ${#ufiles[@]} -gt 0 ]; then
        echo
        echo "UCX's ucx_perftest on the same path (bench/ucx-perftest.sh), every pass:"
        echo
        grep -hv '^#' "${ufiles[@]}" | sort -s -k1,3 | sed 's/^/    /'
    fi
} | tee "peer-results/compare-$stamp.md"
# the figures of this comparison, when gnuplot is there (bench/plot.sh installs it otherwise)
if command -v gnuplot >/dev/null; then
    bench/plot.sh -o "peer-results/plots-$stamp" "${cfiles[@]}" "${jfiles[@]}" >/dev/null \
        && echo "compare-with-peer.sh: figures in peer-results/plots-$stamp/" >&2
else
    echo "compare-with-peer.sh: for figures: bench/plot.sh -o DIR peer-results/{c,java}-$stamp-*.txt" >&2
fi
[ "$failed" -eq 0 ] || echo "compare-with-peer.sh: some program failed: see the '# ... FAILED' lines in peer-results/*-$stamp-*.txt" >&2
exit $failed
