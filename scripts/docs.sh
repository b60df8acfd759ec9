#!/usr/bin/env bash
# scripts/docs.sh — builds APIKit's DocC documentation (.build-docs/APIKit.doccarchive, both modules)
# and fails on any problem (scripts/test.sh runs it):
#
#   1. `swift build --target APIKit` (the .build that `swift test` reuses), then the toolchain's
#      swift-symbolgraph-extract writes the public symbol graphs of APIKit and APIKitParsers
#      (`swift package dump-symbol-graph` would also try the test modules, unbuilt, and fail);
#   2. every public declaration has a summary line; a function documents each parameter, its
#      return value and, when it throws, its errors; every protocol and property wrapper shows
#      an example — which neither swift-format nor DocC checks;
#   3. the two catalogs, merged so that links between the modules resolve, go through
#      `docc convert --warnings-as-errors` (a problem is reported relative to its catalog);
#   4. the ```swift blocks of each catalog page are type-checked together against the modules
#      (`import APIKit` added when a page has none), with warnings as errors;
#   5. the ```swift examples of the doc comments (`///` in Sources/APIKit, Sources/APIKitParsers
#      and Transports/AsyncHTTPClient/Sources) and of README.md and Transports/AsyncHTTPClient/README.md
#      are type-checked with warnings as errors, one swiftc per group, beside
#      scripts/doc-examples/Preamble.swift, which declares once the names they use without
#      declaring (`session`, `UserRequest`, `destination`…). scripts/doc-examples/extract.py
#      wraps each: an example made only of `var`s, `func`s and wrapped properties is the body of
#      a request type, any other the body of a function (`async` when it awaits); see its
#      header. A diagnostic names the example's file and line. A block fenced ```swift nocheck
#      is not compiled (keep them rare: each is listed, and counted in the last line). The
#      AsyncHTTPClient transport's examples need its module, which only a build of that package
#      makes (AsyncHTTPClient and SwiftNIO: minutes); they are checked when
#      Transports/AsyncHTTPClient/.build has one (scripts/test.sh step 6 builds it; the full pass
#      names its sanitizer build, step 7b, with APIKIT_AHC_BIN), and said
#      not to be otherwise; APIKIT_DOCS_TRANSPORT=1 makes that a failure, and APIKIT_AHC_BIN
#      names another build (its .build/debug).
#
# Serve it with `python3 -m http.server -d .build-docs/APIKit.doccarchive` and open
# http://localhost:8000/documentation/apikit. APIKIT_DOCC: the docc to run (default: `docc` on
# PATH, else the one next to `swift`).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
cd "$ROOT"
OUT="$ROOT/.build-docs"
MODULES=(APIKit APIKitParsers)

DOCC="${APIKIT_DOCC:-$(command -v docc || echo "$(dirname "$(readlink -f "$(command -v swift)")")/docc")}"
[[ -x "$DOCC" ]] || { echo "docs.sh: no docc found (set APIKIT_DOCC)" >&2 && exit 1; }

started=$SECONDS
rm -rf "$OUT/symbol-graphs" "$OUT/APIKit.docc" "$OUT/APIKit.doccarchive"
mkdir -p "$OUT/symbol-graphs"

# 1. Symbol graphs.
swift build --target APIKit >"$OUT/build.log" 2>&1 || { cat "$OUT/build.log" >&2 && exit 1; }
BIN="$(swift build --show-bin-path)"
TRIPLE="$(swift -print-target-info | "${APIKIT_PYTHON:-python3}" -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')"
EXTRACT="$(dirname "$DOCC")/swift-symbolgraph-extract"
[[ -x "$EXTRACT" ]] || EXTRACT="$(command -v swift-symbolgraph-extract)"
for module in "${MODULES[@]}"; do
    # Writes <module>.symbols.json and the extension graphs, such as APIKit@FoundationNetworking.symbols.json.
    "$EXTRACT" -module-name "$module" -target "$TRIPLE" -I "$BIN/Modules" -module-cache-path "$BIN/ModuleCache" \
        -minimum-access-level public -omit-extension-block-symbols -output-dir "$OUT/symbol-graphs"
done

# 2. The doc comments of the public declarations written in Sources/.
"${APIKIT_PYTHON:-python3}" - "$OUT/symbol-graphs" "$ROOT/Sources" <<'PY'
import json, pathlib, re, sys

graphs, sources = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]).as_uri() + "/"
FUNCTIONS = {"swift.func", "swift.func.op", "swift.method", "swift.type.method", "swift.init", "swift.subscript"}


def throws_itself(fragments):
    """Whether `throws` follows the parameter clause (not inside a closure parameter's type)."""
    depth, after_parameters = 0, False
    for fragment in fragments:
        if fragment["kind"] == "keyword" and fragment["spelling"] in ("throws", "rethrows"):
            if depth == 0 and after_parameters:
                return True
        elif fragment["kind"] == "text":
            for character in fragment["spelling"]:
                if character in "([":
                    depth += 1
                elif character in ")]":
                    depth -= 1
                    after_parameters = after_parameters or depth == 0
    return False


problems = set()
for graph in sorted(graphs.glob("*.symbols.json")):
    for symbol in json.loads(graph.read_text())["symbols"]:
        uri = symbol.get("location", {}).get("uri", "")
        if not uri.startswith(sources):
            continue  # synthesized (Equatable's !=, memberwise conformances) or from another module
        where = f"Sources/{uri[len(sources):]}:{symbol['location']['position']['line'] + 1}"
        name = ".".join(symbol["pathComponents"])
        lines = [line["text"] for line in symbol.get("docComment", {}).get("lines", [])]
        doc = "\n".join(lines)
        first = next((line.strip() for line in lines if line.strip()), "")
        if not first or first.startswith("- "):
            problems.add(f"{where}: {name} has no summary line")
        fragments = symbol.get("declarationFragments", [])
        is_wrapper = any(fragment["spelling"] == "@propertyWrapper" for fragment in fragments)
        if (symbol["kind"]["identifier"] == "swift.protocol" or is_wrapper) and "```" not in doc:
            problems.add(f"{where}: {name} has no example (a ``` code block)")
        if symbol["kind"]["identifier"] not in FUNCTIONS:
            continue
        signature = symbol.get("functionSignature", {})
        documented = set(re.findall(r"-\s+Parameter\s+(\w+)\s*:", doc))
        documented |= set(re.findall(r"^\s+-\s+(\w+)\s*:", doc, re.M))
        for parameter in signature.get("parameters", []):
            parameter_name = parameter.get("internalName", parameter["name"])
            if parameter_name != "_" and parameter_name not in documented:
                problems.add(f"{where}: {name} does not document its parameter `{parameter_name}`")
        returns = "".join(fragment["spelling"] for fragment in signature.get("returns", [])).strip()
        returns_value = symbol["kind"]["identifier"] != "swift.init" and returns not in ("", "Void", "()")
        if returns_value and "- Returns:" not in doc:
            problems.add(f"{where}: {name} has no `- Returns:`")
        if throws_itself(fragments) and "- Throws:" not in doc:
            problems.add(f"{where}: {name} throws but has no `- Throws:`")
for problem in sorted(problems):
    print(problem, file=sys.stderr)
if problems:
    print(f"docs.sh: {len(problems)} problems in the doc comments of public declarations", file=sys.stderr)
    sys.exit(1)
PY

# 3. One catalog for both modules, converted with warnings as errors.
mkdir -p "$OUT/APIKit.docc"
cp -R Sources/APIKit/APIKit.docc/. "$OUT/APIKit.docc/"
cp -R Sources/APIKitParsers/APIKitParsers.docc/. "$OUT/APIKit.docc/"
"$DOCC" convert "$OUT/APIKit.docc" \
    --additional-symbol-graph-dir "$OUT/symbol-graphs" \
    --output-path "$OUT/APIKit.doccarchive" \
    --fallback-display-name APIKit \
    --fallback-bundle-identifier io.github.apikit \
    --warnings-as-errors

# 4. The catalogs' code examples compile.
rm -rf "$OUT/snippets" && mkdir -p "$OUT/snippets"
"${APIKIT_PYTHON:-python3}" - "$OUT/snippets" Sources/APIKit/APIKit.docc Sources/APIKitParsers/APIKitParsers.docc <<'PY'
import pathlib, re, sys

out = pathlib.Path(sys.argv[1])
for catalog in sys.argv[2:]:
    for page in sorted(pathlib.Path(catalog).rglob("*.md")):
        blocks = re.findall(r"^```swift\n(.*?)^```", page.read_text(), re.S | re.M)
        if not blocks:
            continue
        source = "\n".join(blocks)
        if not re.search(r"^import ", source, re.M):
            source = "import APIKit\n" + source
        # Named after the page, prefixed so that no file is named like the module it imports.
        (out / f"Page_{page.stem}.swift").write_text(f"// {page}\n" + source)
PY
pages=0
for snippet in "$OUT"/snippets/*.swift; do
    pages=$((pages + 1))
    swiftc -typecheck -swift-version 6 -warnings-as-errors -I "$BIN/Modules" -module-cache-path "$OUT/module-cache" \
        "$snippet" || {
        echo "docs.sh: the examples of $(head -n 1 "$snippet" | cut -c4-) do not compile ($snippet)" >&2
        exit 1
    }
done

# 5. The doc comments' and READMEs' examples compile, each wrapped by scripts/doc-examples/extract.py.
EXAMPLES="$OUT/examples"
rm -rf "$EXAMPLES"
AHC_BIN="${APIKIT_AHC_BIN:-$ROOT/Transports/AsyncHTTPClient/.build/debug}"
core="core=Sources/APIKit,Sources/APIKitParsers,README.md"
transport="transport+APIKitAsyncHTTPClient+AsyncHTTPClient+NIOCore+NIOSSL"
transport+="=Transports/AsyncHTTPClient/Sources,Transports/AsyncHTTPClient/README.md"
counts="$("${APIKIT_PYTHON:-python3}" scripts/doc-examples/extract.py "$EXAMPLES" "$core" "$transport")"
# typecheck GROUP MODULES SWIFTC_OPTION...: one swiftc for the group's examples and the preamble.
typecheck() {
    local group="$1" modules="$2"
    shift 2
    swiftc -typecheck -swift-version 6 -warnings-as-errors -continue-building-after-errors -I "$modules" "$@" \
        -module-cache-path "$OUT/module-cache" scripts/doc-examples/Preamble.swift "$EXAMPLES/$group"/*.swift || {
        echo "docs.sh: the examples above do not compile without warnings; their files are in $EXAMPLES/$group" >&2
        exit 1
    }
}
typecheck core "$BIN/Modules"
read -r _ checked exempted <<<"$(grep '^core ' <<<"$counts")"
read -r _ transport_checked transport_exempted <<<"$(grep '^transport ' <<<"$counts")"
exempted=$((exempted + transport_exempted))
if [[ -f "$AHC_BIN/Modules/APIKitAsyncHTTPClient.swiftmodule" ]]; then
    # The C modules of SwiftNIO and its dependencies, as SwiftPM hands them to swiftc.
    maps=()
    while IFS= read -r map; do maps+=(-Xcc "-fmodule-map-file=$map"); done < <(
        find "$AHC_BIN"/ "$(dirname "$AHC_BIN")/checkouts" -name module.modulemap \
            \( -path "$AHC_BIN/*.build/module.modulemap" -o -path '*/Sources/*/include/module.modulemap' \) | sort)
    typecheck transport "$AHC_BIN/Modules" ${maps[@]+"${maps[@]}"}
    checked=$((checked + transport_checked))
else
    echo "docs.sh: $transport_checked examples of the AsyncHTTPClient transport NOT checked: no build of" \
        "Transports/AsyncHTTPClient (scripts/test.sh step 6 or 7b makes one)" >&2
    if [[ -n "${APIKIT_DOCS_TRANSPORT:-}" ]]; then exit 1; fi
fi
echo "docs.sh: examples type-checked with warnings as errors: $pages catalog pages, $checked doc comment and" \
    "README examples; $exempted exempted (\`\`\`swift nocheck, listed above)" >&2

echo "docs.sh: documentation built in $((SECONDS - started)) s: $OUT/APIKit.doccarchive" >&2
