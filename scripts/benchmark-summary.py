#!/usr/bin/env python3
"""Summarise a package-benchmark run of APIKit's Benchmarks/ package.

    python3 scripts/benchmark-summary.py .build-bench/last-run.txt
    python3 scripts/benchmark-summary.py .build-bench/run-*.txt   # medians over runs

Reads the tables that `swift package benchmark` prints (the default text
format or `--format markdown`) and prints, as markdown, the p50 of each
benchmark and the ratio of each APIKit benchmark to the baselines in its group.
A group is the part of the name before ": " ("Encode 10 fields: APIKit" and
"Encode 10 fields: hand-written minimal" are one group); the APIKit side is the
member whose name after ": " starts with "APIKit" or is "JSONParser".

Given several outputs (runs of the same suite), it prints the median over the
runs, and each ratio as the median of the ratios within one run.

scripts/benchmark.sh runs it after every run. Prints nothing for an output
it does not recognise (another --format, a `list`, a baseline operation).
"""

import re
import sys

TIME_UNITS = {"ns": 1.0, "μs": 1e3, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}
COUNT_UNITS = {"#": 1.0, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "P": 1e15}
COLUMNS = ["p0", "p25", "p50", "p75", "p90", "p99", "p100", "samples"]


def parse_label(label):
    """'Time (wall clock) (ns) *' -> ('Time (wall clock)', 'ns')."""
    label = label.rstrip(" *").strip()
    match = re.match(r"^(.*?)\s*\(([^()]*)\)$", label)
    if match and (match.group(2) in TIME_UNITS or match.group(2) in COUNT_UNITS):
        return match.group(1), match.group(2)
    return label, None


def number(text):
    text = text.strip()
    try:
        return float(text)
    except ValueError:
        return None


def parse(lines):
    """{benchmark: {metric: {column: value in base units}}}, in output order."""
    results = {}
    current = None
    previous = ""
    for raw in lines:
        line = raw.rstrip("\n")
        stripped = line.strip()
        if stripped.startswith("### "):
            current = stripped[4:].strip()
            results.setdefault(current, {})
        elif stripped.startswith("╒") and previous:
            current = previous
            results.setdefault(current, {})
        elif current and (stripped.startswith("│") or stripped.startswith("|")):
            cells = [c.strip() for c in re.split(r"[│|]", stripped)[1:-1]]
            if len(cells) == 9 and cells[0] != "Metric" and not set(cells[1]) <= set(":-"):
                name, unit = parse_label(cells[0])
                values = [number(c) for c in cells[1:]]
                if None in values:
                    continue
                factor = TIME_UNITS.get(unit) or COUNT_UNITS.get(unit) or 1.0
                if name == "Memory (resident peak)":
                    factor = COUNT_UNITS.get(unit, 1.0)  # bytes
                scaled = dict(zip(COLUMNS[:-1], (v * factor for v in values[:-1])))
                scaled["samples"] = values[-1]
                results[current][name] = scaled
        if stripped:
            previous = stripped
    return {name: metrics for name, metrics in results.items() if metrics}


def fmt_time(ns):
    if ns is None:
        return "–"
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.1f} µs"
    return f"{ns:.0f} ns"


def fmt_count(value):
    return "–" if value is None else f"{value:,.0f}"


def fmt_ratio(value):
    return "–" if value is None else f"{value:.2f}×"


def median(values):
    values = sorted(v for v in values if v is not None)
    if not values:
        return None
    middle = len(values) // 2
    return values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2


def is_apikit(name):
    side = name.split(": ", 1)[1] if ": " in name else ""
    return side.startswith("APIKit") or side == "JSONParser"


class Runs:
    """The parsed runs; every statistic is the median over the runs."""

    def __init__(self, runs):
        self.runs = runs

    def values(self, bench, metric, column):
        return [run.get(bench, {}).get(metric, {}).get(column) for run in self.runs]

    def get(self, bench, metric, column="p50"):
        return median(self.values(bench, metric, column))

    def spread(self, bench, metric, column="p50"):
        values = [v for v in self.values(bench, metric, column) if v is not None]
        return (min(values), max(values)) if len(values) > 1 else None

    def ratio(self, a, b, metric, column="p50"):
        """Median over the runs of a ÷ b, each ratio taken within one run."""
        pairs = zip(self.values(a, metric, column), self.values(b, metric, column))
        return median(x / y for x, y in pairs if x is not None and y)

    def pair_ratio(self, bench, a, b, column="p50"):
        """Median over the runs of metric a ÷ metric b of one benchmark, each within one run."""
        pairs = zip(self.values(bench, a, column), self.values(bench, b, column))
        return median(x / y for x, y in pairs if x is not None and y)


WALL = "Time (wall clock)"
MALLOCS = "Malloc (total)"
RPS = "Requests per s"
LATENCY = "Latency in µs"
MEMORY = "Memory (resident peak)"


def main(paths):
    parsed = []
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            result = parse(f)
        if result:
            parsed.append(result)
    if not parsed:
        return
    runs = Runs(parsed)

    names = []
    for result in parsed:
        names += [name for name in result if name not in names]
    groups = {}
    for name in names:
        groups.setdefault(name.split(": ", 1)[0], []).append(name)
    for members in groups.values():
        members.sort(key=lambda name: not is_apikit(name))  # APIKit first, the rest in output order

    interleaved = [
        n for n in names if any(m.startswith("APIKit ") for run in parsed for m in run.get(n, {}))
    ]
    for name in interleaved:
        groups.pop(name.split(": ", 1)[0], None)
    local = [g for g in groups if not any(RPS in run.get(n, {}) for run in parsed for n in groups[g])]
    e2e = [g for g in groups if g not in local]
    several = len(parsed) > 1

    print()
    print("## Summary (ratio = APIKit ÷ baseline, so above 1× APIKit is slower)")
    print()
    if several:
        print(
            f"Medians over {len(parsed)} runs; each ratio is the median of the ratios within one run. "
            "`p50 range` is the lowest and highest p50 of the runs: how much the machine moved."
        )
        print()
    print(
        "p50 is the headline; p0 (the fastest iteration) is less disturbed by other load on the machine: "
        "when the two disagree, something else was using the CPU during the run."
    )

    def ref_of(group):
        return next((m for m in groups[group] if is_apikit(m)), None)

    def range_text(bench, metric, fmt, scale=1.0):
        spread = runs.spread(bench, metric)
        return "" if spread is None else f"{fmt(spread[0] * scale)} – {fmt(spread[1] * scale)}"

    if local:
        print()
        header = ["benchmark", "wall clock p50"] + (["p50 range"] if several else []) + [
            "wall clock p0", "mallocs / iteration",
            "APIKit ÷ this (time p50)", "APIKit ÷ this (time p0)", "APIKit ÷ this (mallocs)",
        ]
        print("| " + " | ".join(header) + " |")
        print("|:--" + "|--:" * (len(header) - 1) + "|")
        for group in local:
            reference = ref_of(group)
            for name in groups[group]:
                if reference and name != reference:
                    ratios = [
                        fmt_ratio(runs.ratio(reference, name, WALL)),
                        fmt_ratio(runs.ratio(reference, name, WALL, "p0")),
                        fmt_ratio(runs.ratio(reference, name, MALLOCS)),
                    ]
                else:
                    ratios = ["", "", ""]
                row = [name, fmt_time(runs.get(name, WALL))]
                if several:
                    row.append(range_text(name, WALL, fmt_time))
                row += [fmt_time(runs.get(name, WALL, "p0")), fmt_count(runs.get(name, MALLOCS))] + ratios
                print("| " + " | ".join(row) + " |")
        ten = "Encode 10 fields: APIKit"
        twenty_nil = "Encode 30 fields (20 nil): APIKit"
        if ten in names and twenty_nil in names:
            print()
            print(
                f"20 nil fields: `{twenty_nil}` ÷ `{ten}` (the same URLRequest) = "
                f"{fmt_ratio(runs.ratio(twenty_nil, ten, WALL))} time, "
                f"{fmt_ratio(runs.ratio(twenty_nil, ten, MALLOCS))} mallocs"
            )
    if e2e:
        print()
        header = ["benchmark", "requests/s p50"] + (["req/s range"] if several else []) + [
            "latency p50", "latency p99", "peak RSS",
            "APIKit ÷ this (req/s)", "APIKit ÷ this (p50 latency)", "APIKit ÷ this (p99 latency)",
        ]
        print("| " + " | ".join(header) + " |")
        print("|:--" + "|--:" * (len(header) - 1) + "|")
        for group in e2e:
            reference = ref_of(group)
            for name in groups[group]:
                if reference and name != reference:
                    ratios = [
                        fmt_ratio(runs.ratio(reference, name, RPS)),
                        fmt_ratio(runs.ratio(reference, name, LATENCY)),
                        fmt_ratio(runs.ratio(reference, name, LATENCY, "p99")),
                    ]
                else:
                    ratios = ["", "", ""]
                l50 = runs.get(name, LATENCY)
                l99 = runs.get(name, LATENCY, "p99")
                memory = runs.get(name, MEMORY, "p100")
                row = [name, fmt_count(runs.get(name, RPS))]
                if several:
                    row.append(range_text(name, RPS, fmt_count))
                row += [
                    fmt_time(None if l50 is None else l50 * 1e3),
                    fmt_time(None if l99 is None else l99 * 1e3),
                    "–" if memory is None else f"{memory / 1e6:.0f} MB",
                ] + ratios
                print("| " + " | ".join(row) + " |")
    if interleaved:
        print()
        print(
            "Interleaved: both clients in one benchmark, alternating batch by batch, so machine noise hits "
            "both alike. Ratio = APIKit ÷ raw URLSession, each taken within one run."
        )
        print()
        header = ["benchmark", "metric", "APIKit p50", "raw p50", "APIKit ÷ raw (p50)", "APIKit ÷ raw (p99)"]
        print("| " + " | ".join(header) + " |")
        print("|:--|:--" + "|--:" * (len(header) - 2) + "|")
        for name in interleaved:
            metrics = []
            for run in parsed:
                metrics += [m[len("APIKit "):] for m in run.get(name, {}) if m.startswith("APIKit ") and m not in metrics]
            for metric in dict.fromkeys(metrics):
                ours, theirs = "APIKit " + metric, "raw " + metric
                row = [
                    name, metric,
                    fmt_count(runs.get(name, ours)), fmt_count(runs.get(name, theirs)),
                    fmt_ratio(runs.pair_ratio(name, ours, theirs)),
                    fmt_ratio(runs.pair_ratio(name, ours, theirs, "p99")),
                ]
                print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: benchmark-summary.py OUTPUT_OF_SWIFT_PACKAGE_BENCHMARK...")
    main(sys.argv[1:])
