#!/usr/bin/env python3
"""apps-summary.py - tables of bench/compare-apps.sh's result lines.

Usage: python3 bench/apps-summary.py RESULTS.txt [MORE.txt ...]

A result line is `KERNEL impl=c|java|java-plain|java-vector pes=N key=value ... UNIT=rate` (higher
is faster); `KERNEL_steady` lines (the last half of the timed iterations) are kernels of their own.
For every kernel and PE count it prints the median rate of each implementation over the runs,
Java/C, at one PE Java on symmetric arrays / Java on plain arrays (the library's own share), and
where measured the Vector API variant and its ratio to C; then each kernel's speed-up from 1 to 2
PEs for C and Java.
"""
import statistics
import sys


def main(paths):
    rates, units = {}, {}
    for path in paths:
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) < 3 or line.startswith("#") or not parts[1].startswith("impl="):
                    continue
                fields = dict(p.split("=", 1) for p in parts[1:-1])
                unit, value = parts[-1].split("=", 1)
                key = (parts[0], int(fields["pes"]))
                rates.setdefault(key, {}).setdefault(fields["impl"], []).append(float(value))
                units[parts[0]] = unit
    med = {k: {impl: statistics.median(v) for impl, v in d.items()} for k, d in rates.items()}

    def cell(x, fmt="%.1f"):
        return fmt % x if x is not None else "-"

    def ratio(a, b):
        return a / b if a is not None and b else None

    print("| kernel | PEs | unit | C | Java | Java plain | Java/C | sym/plain | Java vector | vector/C | runs (C, Java) |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for (kernel, pes) in sorted(med, key=lambda k: (k[0], k[1])):
        d = med[(kernel, pes)]
        c, j, p, v = d.get("c"), d.get("java"), d.get("java-plain"), d.get("java-vector")
        n = rates[(kernel, pes)]
        print("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %d, %d |" % (
            kernel, pes, units[kernel], cell(c), cell(j), cell(p), cell(ratio(j, c), "%.2f"),
            cell(ratio(j, p), "%.2f"), cell(v), cell(ratio(v, c), "%.2f"), len(n.get("c", [])), len(n.get("java", []))))
    print()
    print("| kernel | C speed-up 1 -> 2 PEs | Java speed-up 1 -> 2 PEs | Java vector speed-up |")
    print("|---|---:|---:|---:|")
    for kernel in sorted({k for k, _ in med}):
        one, two = med.get((kernel, 1), {}), med.get((kernel, 2), {})
        print("| %s | %s | %s | %s |" % tuple([kernel] + [cell(ratio(two.get(i), one.get(i)), "%.2f")
                                                           for i in ("c", "java", "java-vector")]))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
