#!/usr/bin/env python3
"""APIKit ÷ baseline ratios within one package-benchmark run (scripts/benchmark.sh runs this).

    python3 scripts/benchmark-ratios.py .build-bench/run-1.txt [.build-bench/run-2.txt ...]

package-benchmark compares a benchmark with its own stored baseline (`baseline compare`), not two
benchmarks of one run with each other; this does that, from the tables it prints (text or
markdown). A group is the part of a benchmark's name before ": " ("Encode 10 fields: APIKit",
"Encode 10 fields: hand-written minimal"); in an interleaved benchmark (EndToEnd.swift) the sides
are the labels of its metrics ("APIKit requests per s", "raw requests per s"). The reference of a
group is its APIKit side (or JSONParser), else its first; each ratio is reference ÷ this, taken
within one run, and given several runs every figure is the median over them. Prints a markdown
table, or nothing for output without run tables.
"""

import re
import statistics
import sys

UNITS = {"ns": 1, "μs": 1e3, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9, "#": 1, "K": 1e3, "M": 1e6, "G": 1e9}
SIDE_METRIC = re.compile(r"(.+) (requests per s|latency in µs|CPU in µs per request)")


def parse(path):
    """{(group, member, metric): {"p0": v, "p50": v, "p99": v}}, values in base units."""
    rows, benchmark, previous = {}, None, ""
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.strip()
        if line.startswith("### "):
            benchmark = line[4:]
        elif line.startswith("╒"):
            benchmark = previous
        elif benchmark and line[:1] in "│|":
            cells = [cell.strip() for cell in re.split(r"[│|]", line)[1:-1]]
            metric = cells[0].removesuffix(" *") if len(cells) == 9 else "Metric"
            unit = re.fullmatch(r"(.*) \((\S+)\)", metric)
            if unit and unit.group(2) in UNITS:  # "Time (wall clock) (ns)", not "Malloc (total)"
                metric = unit.group(1)
            if metric not in ("Metric", "Throughput (# / s)"):
                try:
                    values = [float(cell) * UNITS[unit.group(2)] if unit and unit.group(2) in UNITS else float(cell)
                              for cell in cells[1:8]]
                except ValueError:
                    continue  # the markdown separator row
                group, _, member = benchmark.partition(": ")
                if side := SIDE_METRIC.fullmatch(metric):
                    member, metric = side.groups()
                rows[(group, member, metric)] = {"p0": values[0], "p50": values[2], "p99": values[5]}
        if line:
            previous = line
    return rows


def show(value, metric):
    if value is None:
        return "–"
    if metric.startswith("Time"):
        return f"{value / 1e6:.2f} ms" if value >= 1e6 else f"{value / 1e3:.1f} µs" if value >= 1e3 else f"{value:.0f} ns"
    return f"{value / 1e6:.0f} MB" if metric.startswith("Memory") else f"{value:,.0f}"


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def main(paths):
    runs = [rows for rows in map(parse, paths) if rows]
    sides = {}  # (group, metric) → its members, in output order
    for group, member, metric in dict.fromkeys(key for rows in runs for key in rows):
        sides.setdefault((group, metric), []).append(member)
    if not sides:
        return
    groups = list(dict.fromkeys(group for group, _ in sides))
    print(f"\n## Ratios (reference ÷ this, within one run{f'; medians of {len(runs)} runs' if len(runs) > 1 else ''})\n")
    print("| group | member | metric | p0 | p50 | p99 | reference ÷ this (p50) | (p0) |")
    print("|:--|:--|:--|--:|--:|--:|--:|--:|")
    for group, metric in sorted(sides, key=lambda key: (groups.index(key[0]), key[1])):
        members = sides[(group, metric)]
        reference = next((m for m in members if m.startswith("APIKit") or m == "JSONParser"), members[0])
        for member in sorted(members, key=lambda m: m != reference):
            def values(m, column):
                return [rows.get((group, m, metric), {}).get(column) for rows in runs]

            cells = [show(median(values(member, column)), metric) for column in ("p0", "p50", "p99")]
            for column in ("p50", "p0") if member != reference else ():
                pairs = zip(values(reference, column), values(member, column))
                ratio = median([a / b for a, b in pairs if a is not None and b])
                cells.append("–" if ratio is None else f"{ratio:.2f}×")
            print(f"| {group} | {member} | {metric} | " + " | ".join(cells + [""] * (5 - len(cells))) + " |")


if __name__ == "__main__":
    main(sys.argv[1:]) if len(sys.argv) > 1 else sys.exit(__doc__)
