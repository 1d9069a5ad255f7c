#!/usr/bin/awk -f
# bench/startup-table.awk - OSU-style tables from bench/startup.sh's raw lines
# ("NAME n=N wall_s=.. cpu_s=.. main_ms=.. init_ms=..", '#' lines ignored): per PE count and
# figure, each variant's median [min-max] over the passes, and each variant's ratio to the first
# one (the C peer when it ran): the median [min-max] of the ratios of the same pass.
function sortn(a, n,    i, j, t) {
    for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
}
function stats(a, n, fmt,    m) {
    if (n == 0) return "-"
    sortn(a, n)
    m = n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    return sprintf(fmt " [" fmt "-" fmt "]", m, a[1], a[n])
}
/^#/ || NF < 3 { next }
{
    name = $1; n = substr($2, 3) + 0
    if (!(name in seenv)) { seenv[name] = 1; vars[++nv] = name }
    if (!(n in seenn)) { seenn[n] = 1; ns[++nn] = n }
    p = ++pass[name, n]
    for (i = 3; i <= NF; i++) { split($i, kv, "="); val[name, n, kv[1], p] = kv[2] }
}
function table(field, title, fmt,    i, k, v, p, a, c, base, r) {
    printf "# %s: median [min-max] over the passes\n# %-5s", title, "PEs"
    for (v = 1; v <= nv; v++) printf " %-22s", vars[v]
    for (v = 2; v <= nv; v++) printf " %-18s", vars[v] "/" vars[1]
    print ""
    sortn(ns, nn)
    for (i = 1; i <= nn; i++) {
        k = ns[i]; printf "%-7d", k
        for (v = 1; v <= nv; v++) {
            delete a; c = 0
            for (p = 1; p <= pass[vars[v], k]; p++) if ((vars[v], k, field, p) in val) a[++c] = val[vars[v], k, field, p]
            printf " %-22s", stats(a, c, fmt)
        }
        for (v = 2; v <= nv; v++) {
            delete r; c = 0
            for (p = 1; p <= pass[vars[v], k] && p <= pass[vars[1], k]; p++) {
                base = val[vars[1], k, field, p]
                if (base > 0 && (vars[v], k, field, p) in val) r[++c] = val[vars[v], k, field, p] / base
            }
            printf " %-18s", stats(r, c, "%.2f")
        }
        print ""
    }
}
END {
    if (nv == 0) { print "# no results"; exit 1 }
    table("wall_s", "start-up, wall time of the whole command (s)", "%.2f")
    table("init_ms", "last PE out of shmem_init (ms from the command's start)", "%.0f")
    table("cpu_s", "CPU time (user + system) of the launcher and all PEs (s)", "%.2f")
}
