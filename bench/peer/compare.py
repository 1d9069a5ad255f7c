#!/usr/bin/env python3
"""compare.py - put shmem4j benchmark results beside the C peer's, measurement by measurement.

Usage: python3 compare.py --java J1.txt [J2.txt ...] --c C1.txt [C2.txt ...] [--names NEW OLD]

--names relabels the two sides (default Java C), for comparing two Java builds with each other
(compare-with-peer.sh's BASELINE: --java new --c baseline --names new baseline).

Both sides print one line per measurement, `name key=val ... unit=value` (lines starting
with '#' are comments). A measurement is named by everything before the last pair; the last
pair is its unit and value. For each measurement present on both sides this prints, per side, the
median over the files with the minimum and maximum beside it, the speed of Java relative to C
from the medians:

  speed = C time / Java time      for time units (ns, us, ms, s)
  speed = Java rate / C rate      for everything else (MBps, Mmsgs, Mops, Mups, ...)

so speed > 1 means Java is faster, and in how many passes Java was ahead: the files of each side
are taken in the order given as passes 1, 2, ... (compare-with-peer.sh interleaves them, C then
Java), and pass i's Java figure is set against pass i's C figure. A row counts as ahead only when
Java leads in every pass. Measurements present on one side only are listed after the table. Take
both sides from interleaved runs on the same machine: absolute figures drift.

Sessions: OSHMEM 4.1 has no shmem_ctx_session_start, so the C peer runs only plain variants. A
Java row with `mode=session` (histo, ig, gups; issue 26's batching sessions) is compared with the C
row of the same program and other fields with `mode=plain` in its place, or, where C's row has no
mode field (gups), without it; the table names that C row in brackets.
"""
import argparse
import statistics

from summarize import fmt   # same number format as the summary tables

TIME_UNITS = {"ns", "us", "ms", "s"}


def parse(paths):
    """{(name, unit): [value of file 1 or None, value of file 2 or None, ...]}"""
    values = {}
    for i, path in enumerate(paths):
        with open(path) as f:
            for line in f:
                parts = line.split()
                if not parts or parts[0].startswith("#") or "=" not in parts[-1]:
                    continue
                unit, _, value = parts[-1].partition("=")
                try:
                    v = float(value)
                except ValueError:
                    continue
                values.setdefault((" ".join(parts[:-1]), unit), [None] * len(paths))[i] = v
    return values


def present(vs):
    return [v for v in vs if v is not None]


def speed(unit, java, c):
    if unit in TIME_UNITS:
        return c / java if java > 0 else float("inf")
    return java / c if c > 0 else float("inf")


def spread(vs):
    """median [min-max] of the passes that have the measurement"""
    got = present(vs)
    if len(got) == 1:
        return fmt(got[0])
    return f"{fmt(statistics.median(got))} [{fmt(min(got))}-{fmt(max(got))}]"


def c_counterpart(key, c):
    """The C measurement a Java one is compared with, and a note naming it when it is not the same."""
    if key in c:
        return key, ""
    name, unit = key
    fields = name.split()
    if "mode=session" not in fields:
        return None, ""
    i = fields.index("mode=session")
    for alt in (fields[:i] + ["mode=plain"] + fields[i + 1:], fields[:i] + fields[i + 1:]):
        other = (" ".join(alt), unit)
        if other in c:
            return other, f" [C: {other[0]}]"
    return None, ""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--java", nargs="+", required=True)
    ap.add_argument("--c", nargs="+", required=True)
    ap.add_argument("--names", nargs=2, default=["Java", "C"], metavar=("JAVA", "C"))
    args = ap.parse_args()
    jn, cn = args.names
    java, c = parse(args.java), parse(args.c)
    pairs = {k: c_counterpart(k, c) for k in java}
    both = [k for k in java if pairs[k][0] is not None]
    paired_c = {pairs[k][0] for k in both}
    print(f"| measurement | unit | {jn} median [min-max] | {cn} median [min-max] | {jn} speed vs {cn} | passes ahead |")
    print("|---|---|---:|---:|---:|---:|")
    leads = 0
    for key in both:
        name, unit = key
        ckey, note = pairs[key]
        jv, cv = java[key], c[ckey]
        s = speed(unit, statistics.median(present(jv)), statistics.median(present(cv)))
        paired = [(j, x) for j, x in zip(jv, cv) if j is not None and x is not None]
        ahead = sum(1 for j, x in paired if speed(unit, j, x) > 1)
        print(f"| {name}{note} | {unit} | {spread(jv)} | {spread(cv)} | {s:.2f}x | {ahead}/{len(paired)} |")
        leads += paired and ahead == len(paired)
    print(f"\n{jn} ahead in every pass on {leads} of {len(both)} rows.")
    only_java = sorted(k for k in java if pairs[k][0] is None)
    only_c = sorted(k for k in c if k not in paired_c)
    if only_java:
        print(f"\nonly in {jn}: " + ", ".join(f"{n} ({u})" for n, u in only_java))
    if only_c:
        print(f"\nonly in {cn}: " + ", ".join(f"{n} ({u})" for n, u in only_c))
    if any(pairs[k][1] for k in both):
        print("\nRows marked [C: ...] are Java session variants (mode=session) beside the C peer's plain row"
              " (OSHMEM has no sessions).")


if __name__ == "__main__":
    main()
