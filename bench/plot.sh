#!/usr/bin/env bash
# bench/plot.sh - PNG figures from benchmark results (the lines of bench/run.sh and bench/peer/run.sh).
#
# Usage: bench/plot.sh [-o DIR] RESULTS ...       (DIR default: peer-results/plots of the project, git-ignored)
# Draws, for the results given (each file tells by its first line whether it is Java's or C's):
#   latency.png            put_lat, get_lat by size: Java solid, C peer dashed
#   bandwidth.png          put_bw, get_bw by size: Java solid, C peer dashed
#   msgrate_threads.png    8-byte putmem_nbi rate by threads of PE 0, private and shared contexts
#   reduce_algo.png        float sum reduce by size, a line per reduce algorithm (teams paper, figure 4)
#   reduce_algo_hosts.png  the same, two-level over host teams (reduce_algo_hosts)
#   team_create.png        time per team split by PEs (team_create runs at several NP)
# Figures without data are skipped, saying so. A measurement found in several files of one side
# is drawn at its median. Next to each PNG, its gnuplot script (with the data): 'gnuplot NAME.gp'
# in DIR draws it again.
# Needs gnuplot with the pngcairo terminal (Debian: gnuplot-nox); when it is missing and this runs
# as root, it is installed with apt-get, else the script says what to install.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")

out=$root/peer-results/plots
files=()
while [ $# -gt 0 ]; do
    case "$1" in
    -o) [ $# -ge 2 ] || { echo "bench/plot.sh: -o needs a directory" >&2; exit 2; }
        out=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "bench/plot.sh: unknown option $1 (usage: bench/plot.sh [-o DIR] RESULTS ...)" >&2; exit 2 ;;
    *) [ -f "$1" ] || { echo "bench/plot.sh: no such file: $1" >&2; exit 2; }
        files+=("$1"); shift ;;
    esac
done
[ ${#files[@]} -gt 0 ] || { echo "usage: bench/plot.sh [-o DIR] RESULTS ..." >&2; exit 2; }
mkdir -p "$out" || { echo "bench/plot.sh: cannot create $out" >&2; exit 1; }

# gnuplot from Debian (gnuplot-nox: no X, but the cairo PNG terminal)
if ! command -v gnuplot >/dev/null; then
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
        echo "bench/plot.sh: installing gnuplot-nox" >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get install -y -qq gnuplot-nox >/dev/null 2>&1 \
            || { apt-get update -qq >/dev/null && apt-get install -y -qq gnuplot-nox >/dev/null; } \
            || { echo "bench/plot.sh: apt-get install gnuplot-nox failed" >&2; exit 1; }
    else
        echo "bench/plot.sh: gnuplot not found: install it (Debian/Ubuntu: sudo apt-get install gnuplot-nox)" >&2
        exit 1
    fi
fi
gnuplot -e 'set terminal' 2>&1 | grep -qw pngcairo \
    || { echo "bench/plot.sh: this gnuplot has no pngcairo terminal (Debian: apt-get install gnuplot-nox)" >&2; exit 1; }

# the report tool, built if needed (from the project root; the files stay as the caller named them)
(cd "$root" && . bench/jars.sh && build_if_stale bench/plot.sh) || exit 1
. "$root/bin/jdk25.sh"
find_jdk25 || exit 1

scripts=$("$JAVA25/bin/java" -cp "$root/bench/target/shmem4j-bench.jar" org.shmem4j.bench.report.Report plot -o "$out" "${files[@]}") \
    || exit 1
status=0
while IFS= read -r gp; do
    if (cd "$out" && gnuplot "$(basename "$gp")"); then
        echo "${gp%.gp}.png"
    else
        echo "bench/plot.sh: gnuplot failed on $gp" >&2
        status=1
    fi
done <<< "$scripts"
exit $status
