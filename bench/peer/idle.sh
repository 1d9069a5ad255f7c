# peer/idle.sh - sourced by peer/run.sh and bench/run.sh: wait for a quiet machine before each
# program, since other work on the 2 cores skews every number.

# percent of all CPUs busy over the next half second (from /proc/stat)
busy_pct() {
    local a b
    a=$(awk '/^cpu /{ print $2+$3+$4+$7+$8+$9, $5+$6 }' /proc/stat)
    sleep 0.5
    b=$(awk '/^cpu /{ print $2+$3+$4+$7+$8+$9, $5+$6 }' /proc/stat)
    awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, " "); split(b, y, " ");
        busy = y[1] - x[1]; idle = y[2] - x[2];
        printf "%d", (busy + idle > 0) ? 100 * busy / (busy + idle) : 0 }'
}

# wait_idle SECONDS: wait at most SECONDS until less than 10% of the CPUs are busy; echo the last
# busy share seen
wait_idle() {
    local deadline=$(( $(date +%s) + $1 )) pct
    while :; do
        pct=$(busy_pct)
        if [ "$pct" -le 10 ] || [ "$(date +%s)" -ge "$deadline" ]; then
            echo "$pct"
            return
        fi
        sleep 2
    done
}
