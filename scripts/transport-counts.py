#!/usr/bin/env python3
"""Per-request instruction counts from pairs of callgrind files (scripts/transport-counts.sh).

    transport-counts.py K CLIENT ZERO.out FULL.out [CLIENT ZERO.out FULL.out ...]

For each client, ZERO.out is a run of `TransportLoad --count 0` and FULL.out of `--count K`: the
difference of the two, divided by K, is one request. Prints three Markdown tables:

1. the instructions per request of each client, and each one's excess over the last client;
2. the same split by where the instructions ran, exclusive of callees: a shared library
   (libswiftCore, libc, libFoundationEssentials, …) or, inside the statically linked
   TransportLoad, the Swift module of the function (APIKit, APIKitAsyncHTTPClient, NIOCore, …);
3. for the first client, the APIKit functions whose inclusive cost per request is largest: the
   synchronous stages (encoding, the pipeline's start, the parser) read directly; `async`
   functions resume on other threads, so their inclusive figures overlap and are left out.
"""

import re
import subprocess
import sys
from collections import defaultdict

COST_LINE = re.compile(r"^[0-9+*-]")
NAMED = re.compile(r"\((\d+)\)(?: (.*))?$")
MANGLED_MODULE = re.compile(r"_?\$s(\d+)([A-Za-z_][A-Za-z0-9_]*)")
EXTENSION = re.compile(r"(?<=\d)(?:6(APIKit)|13(APIKitParsers)|22(APIKitAsyncHTTPClient))E")
# An async function ("Ya" in its type) or one of its resumptions ("TQ", "TY"): its inclusive
# cost counts work that ran on other threads, once per resumption.
ASYNC = re.compile(r"Ya|TQ\d*_|TY\d*_")


def read(path):
    """Self and inclusive Ir per (object, function) of one callgrind file."""
    names = {"ob": {}, "fn": {}}

    def resolve(kind, value):
        match = NAMED.match(value)
        if not match:
            return value
        if match.group(2) is not None:
            names[kind][match.group(1)] = match.group(2)
        return names[kind].get(match.group(1), value)

    self_cost, inclusive = defaultdict(int), defaultdict(int)
    obj = fn = callee = None
    in_call = False
    with open(path) as lines:
        for line in lines:
            line = line.rstrip("\n")
            if not line:
                continue
            key, _, value = line.partition("=")
            if key in ("ob", "cob"):
                resolved = resolve("ob", value)
                if key == "ob":
                    obj = resolved
            elif key == "fn":
                fn = resolve("fn", value)
            elif key == "cfn":
                callee = resolve("fn", value)
            elif key == "calls":
                in_call = True
            elif COST_LINE.match(line):
                parts = line.split()
                if len(parts) < 2:
                    continue
                cost = int(parts[1])
                if in_call:
                    in_call = False
                    if callee != fn:  # a recursive call is already in the caller's own cost
                        inclusive[(obj, fn)] += cost
                else:
                    self_cost[(obj, fn)] += cost
                    inclusive[(obj, fn)] += cost
    return self_cost, inclusive


def place(obj, fn):
    """A shared library's name, or the Swift module of a function of the executable."""
    library = (obj or "?").rsplit("/", 1)[-1]
    if not library.startswith("TransportLoad"):
        return library.split(".so")[0]
    # An extension of another module's type (`HTTPURLResponse.make` in APIKitAsyncHTTPClient)
    # names its own module after the type, followed by `E`.
    extension = EXTENSION.search(fn or "")
    if extension:
        return next(group for group in extension.groups() if group)
    match = MANGLED_MODULE.match(fn or "")
    return match.group(2)[: int(match.group(1))] if match else "TransportLoad (C, runtime stubs)"


def per_request(zero, full, count):
    return {key: (value - zero.get(key, 0)) / count for key, value in full.items()}


def demangle(symbols):
    result = subprocess.run(
        ["swift-demangle", "--simplified"], input="\n".join(symbols), capture_output=True, text=True, check=True
    )
    return result.stdout.splitlines()


def main(arguments):
    count = int(arguments[0])
    clients = [arguments[i : i + 3] for i in range(1, len(arguments), 3)]
    runs = {}
    for name, zero_path, full_path in clients:
        zero_self, zero_inclusive = read(zero_path)
        full_self, full_inclusive = read(full_path)
        runs[name] = (per_request(zero_self, full_self, count), per_request(zero_inclusive, full_inclusive, count))
    names = [name for name, _, _ in clients]
    last = names[-1]

    totals = {name: sum(runs[name][0].values()) for name in names}
    print(f"| client | instructions per request | over {last} |")
    print("| --- | --: | --: |")
    for name in names:
        print(f"| {name} | {totals[name]:,.0f} | {totals[name] - totals[last]:+,.0f} |")
    print()

    places = defaultdict(lambda: defaultdict(float))
    for name in names:
        for (obj, fn), cost in runs[name][0].items():
            places[place(obj, fn)][name] += cost
    order = sorted(places, key=lambda p: -abs(places[p][names[0]] - places[p][last]))
    print("| where (exclusive) | " + " | ".join(names) + f" | {names[0]} − {last} |")
    print("| --- |" + " --: |" * (len(names) + 1))
    for where in order:
        row = places[where]
        difference = row[names[0]] - row[last]
        if max(abs(row[n]) for n in names) < 200 and abs(difference) < 200:
            continue
        print(f"| {where} | " + " | ".join(f"{row[n]:,.0f}" for n in names) + f" | {difference:+,.0f} |")
    print()

    first = names[0]
    rows = sorted(
        (cost, fn)
        for (obj, fn), cost in runs[first][1].items()
        if cost >= 300
        and place(obj, fn) in ("APIKit", "APIKitAsyncHTTPClient", "APIKitParsers")
        and not ASYNC.search(fn)
    )[::-1]
    print(f"| {first}: APIKit function (inclusive, synchronous stages) | instructions per request |")
    print("| --- | --: |")
    for (cost, _), name in zip(rows, demangle([fn for _, fn in rows])):
        if "partial apply" in name or name.startswith("closure"):
            continue
        print(f"| `{name[:120]}` | {cost:,.0f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
