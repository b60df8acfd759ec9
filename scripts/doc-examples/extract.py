"""Writes the ```swift examples of the doc comments and READMEs as Swift files that type-check.

Usage: extract.py OUT GROUP[+MODULE...]=SOURCE[,SOURCE...] ...

A SOURCE is a folder (the `///` doc comments of its .swift files) or a Markdown file; each MODULE
is imported by every example of the group, beside Foundation, APIKit and APIKitParsers. Each GROUP
becomes the folder OUT/GROUP, one file per example, which scripts/docs.sh type-checks with one
swiftc invocation beside scripts/doc-examples/Preamble.swift (the names examples share). A
`#sourceLocation` line points each diagnostic at the example's line in its source. How an example
is wrapped (CONTRIBUTING.md, "Documentation", says the same):

- lines `import X` at the left margin join the file's imports (Foundation, APIKit, APIKitParsers);
- an example whose every line at the left margin declares a `var`, a `func` or a property with an
  attribute (`@Query("q") var text = ""`) is the body of a request type
  (`struct ExampleNNN: DocExampleRequest { ... }`), where such members are written;
- any other example is the body of `func exampleNNN() throws { ... }` (`async throws` when it
  has an `await`), followed by one
  `_ = name` for each `let`/`var` it declares at the left margin, so that it reads as top-level
  code does: a value shown and not used again is no warning, a `var` never mutated still is;
- an example in the doc comment of a declaration that is not `public` (or `open`) is compiled
  with `@testable import APIKit`, as only the module's own code could write it.

A block fenced ```swift nocheck is not compiled: an exemption, listed on stderr and counted.
Prints `GROUP CHECKED EXEMPTED` for each group on stdout.
"""
import pathlib, re, sys

IMPORTS = ["Foundation", "APIKit", "APIKitParsers"]
MEMBER = re.compile(r"(var|func|@(?!propertyWrapper)\w+(\(.*\))?\s+var)\b")
DECLARED = re.compile(r"(?:let|var)\s+(\w+)")
IMPORT = re.compile(r"import \w+\s*$")


def examples(source):
    """Yields (path, line, info, body, internal) for each ```swift block of source."""
    for path in sorted(source.rglob("*.swift")) if source.is_dir() else [source]:
        lines = path.read_text().split("\n")
        prefix = r"\s*/// ?" if path.suffix == ".swift" else ""
        index = 0
        while index < len(lines):
            opening = re.match(prefix + r"```\s*(swift\b.*?)\s*$", lines[index])
            index += 1
            if not opening:
                continue
            first, body = index + 1, []
            while index < len(lines) and not re.match(prefix + r"```\s*$", lines[index]):
                body.append(re.sub("^" + prefix, "", lines[index]))
                index += 1
            if index == len(lines):
                sys.exit(f"{path}:{first - 1}: a ```swift block that never ends")
            documented = next((line for line in lines[index + 1:] if not re.match(r"\s*(///|@)", line)), "")
            internal = bool(prefix) and not re.match(r"\s*(public|open)\b", documented)
            yield path, first, opening.group(1), body, internal


def wrap(name, path, line, body, internal, modules):
    header = [("@testable " if internal and module == "APIKit" else "") + f"import {module}" for module in modules]
    header += [text for text in body if IMPORT.match(text) and text not in header]
    # Imports become blank lines, so that the lines keep their numbers.
    code = ["" if IMPORT.match(text) else text for text in body]
    margin = [text for text in code if text.strip() and not text[0].isspace() and not text.startswith("//")
              and not re.match(r"[}\])]", text)]
    location = [f'#sourceLocation(file: "{path}", line: {line})', *code, "#sourceLocation()"]
    if all(MEMBER.match(text) and not re.search(r"\b(try|await)\b", text) for text in margin):
        return "\n".join(header + [f"struct {name}: DocExampleRequest {{", *location, "}", ""])
    reads = [f"_ = {match.group(1)}" for text in margin if (match := DECLARED.match(text))]
    effects = "async throws" if any(re.search(r"\bawait\b", text) for text in code) else "throws"
    return "\n".join(header + [f"func {name.lower()}() {effects} {{", *location, *reads, "}", ""])


out = pathlib.Path(sys.argv[1])
for argument in sys.argv[2:]:
    group, sources = argument.split("=", 1)
    group, *modules = group.split("+")
    folder = out / group
    folder.mkdir(parents=True, exist_ok=True)
    checked = exempted = 0
    for source in sources.split(","):
        for path, line, info, body, internal in examples(pathlib.Path(source)):
            if info.split() == ["swift", "nocheck"]:
                exempted += 1
                print(f"docs.sh: not compiled (```swift nocheck): {path}:{line - 1}", file=sys.stderr)
                continue
            if info != "swift":
                sys.exit(f"{path}:{line - 1}: unknown fence ```{info} (```swift, or ```swift nocheck)")
            checked += 1
            name = f"Example{checked:03}"
            (folder / f"{name}.swift").write_text(wrap(name, path, line, body, internal, IMPORTS + modules))
    print(group, checked, exempted)
