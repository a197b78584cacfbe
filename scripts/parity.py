#!/usr/bin/env python3
"""Measures the package's surface against Apple's: for each module in Parity/Apple, which of the
names Apple's headers declare `import <Module>` gives here, found by type-checking a probe that
names each one with the built modules (a debug build must exist: `swift build`).

Writes Parity/README.md (the counts) and Parity/<Module>.md (the missing names, those the
module's Remaining*Interface.swift list mentions apart from those it does not), and the counts
line of README.md. With --check it writes nothing and fails when those files are not what the
package and its Remaining lists say now.

    python3 scripts/parity.py [--check]
"""
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
PARITY = ROOT / "Parity"
BUILD_PLAN = ROOT / ".build" / "debug.yaml"
MISSING = re.compile(r"^.*probe\.swift:(\d+):\d+: error: cannot find (?:type )?'([A-Za-z0-9_]+)' in scope", re.M)


def compiler_flags():
    """The search paths and C module maps of a target that imports every Apple module, from the build's plan."""
    plan = BUILD_PLAN.read_text()
    start = plan.index('"C.AppleStyleCode-')
    line = plan[plan.index("args: [", start) : plan.index("]\n", plan.index("args: [", start))]
    args = re.findall(r'"((?:[^"\\]|\\.)*)"', line)
    keep, index = [args[0]], 1
    while index < len(args):
        arg = args[index]
        if arg in ("-I", "-Xcc", "-target", "-module-cache-path", "-swift-version") and index + 1 < len(args):
            keep += [arg, args[index + 1]]
            index += 2
            continue
        if arg.startswith("-I"):
            keep.append(arg)
        index += 1
    return keep


def apple_names(module):
    lines = (PARITY / "Apple" / f"{module}.txt").read_text().splitlines()
    return [tuple(line.split(" ", 1)) for line in lines if line and not line.startswith("#")]


def failing_lines(flags, module, lines):
    """The indices of `lines` (statements) the type checker refuses after `import <module>`."""
    body = [f"import {module}", "", "func parityProbe() {"]
    first = len(body) + 1
    body += [f"    {line}" for line in lines] + ["}"]
    with tempfile.TemporaryDirectory() as folder:
        probe = pathlib.Path(folder) / "probe.swift"
        probe.write_text("\n".join(body) + "\n")
        result = subprocess.run(flags + ["-typecheck", str(probe)], capture_output=True, text=True)
    if "error: no such module" in result.stderr:
        sys.exit(f"parity: {module} is not built: run `swift build` first\n{result.stderr[:2000]}")
    return {int(number) - first for number in re.findall(r"probe\.swift:(\d+):\d+: error:", result.stderr)}, result.stderr, first


def missing_names(flags, module, names):
    """The names the type checker cannot find after `import <module>`; a type is also found under
    its Swift name within another type (AVCaptureDeviceFormat is AVCaptureDevice.Format)."""
    lines = [f"_ = {name}.self" if kind == "type" else f"_ = {name}" for kind, name in names]
    _, errors, first = failing_lines(flags, module, lines)
    missing = set()
    for number, name in MISSING.findall(errors):
        line = int(number) - first
        if 0 <= line < len(names) and names[line][1] == name:
            missing.add(name)
    types = {name for kind, name in names if kind == "type"}
    nested = []
    for name in sorted(missing & types):
        for cut in range(len(name) - 1, 2, -1):
            if name[:cut] in types and name[:cut] not in missing and name[cut].isupper():
                nested.append((name, f"_ = {name[:cut]}.{name[cut:]}.self"))
    failed, _, _ = failing_lines(flags, module, [line for _, line in nested])
    missing -= {name for index, (name, _) in enumerate(nested) if index not in failed}
    return missing


def remaining_mentions(module):
    """Every word the module's Remaining*Interface.swift lists name, and the prefixes they name
    with a star (`VTCompressionSession*` stands for every name that starts so)."""
    words, prefixes = set(), set()
    for path in (ROOT / "Sources" / module).glob("Remaining*Interface.swift"):
        text = path.read_text()
        words |= set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text))
        prefixes |= set(re.findall(r"([A-Za-z_][A-Za-z0-9_]*)\*", text))
    return words, prefixes


def is_mentioned(name, mentions):
    words, prefixes = mentions
    return name in words or any(name.startswith(prefix) for prefix in prefixes)


def render(results):
    table = ["# Parity with Apple's modules", "",
             "What `import <Module>` gives here of the names Apple's headers declare (`Parity/Apple`, from",
             "objc2's translation of Apple's SDK headers: C functions, constants, globals and types for the C",
             "frameworks; classes and protocols for AVFoundation and AVFAudio). `scripts/parity.py` writes this",
             "file and each module's list of missing names; CI fails when they are out of date.", "",
             "| Module | Apple's names | Present | Missing, in the Remaining list | Missing, not listed yet |",
             "|---|---:|---:|---:|---:|"]
    pages = {}
    totals = [0, 0, 0, 0]
    for module, (names, missing, mentioned) in results.items():
        listed = sorted(name for name in missing if is_mentioned(name, mentioned))
        unlisted = sorted(name for name in missing if not is_mentioned(name, mentioned))
        row = [len(names), len(names) - len(missing), len(listed), len(unlisted)]
        totals = [a + b for a, b in zip(totals, row)]
        table.append(f"| [{module}]({module}.md) | {row[0]} | {row[1]} | {row[2]} | {row[3]} |")
        page = [f"# {module}: Apple's names not here yet", "",
                f"{row[1]} of {row[0]} names are present. The missing ones follow; those the module's",
                "`Remaining*Interface.swift` list mentions first, by name or by a prefix with a star (with its reasons",
                "there), then the others.", "",
                f"## Mentioned in the Remaining list ({len(listed)})", ""]
        page += [f"- `{name}`" for name in listed] or ["None."]
        page += ["", f"## Not listed yet ({len(unlisted)})", ""]
        page += [f"- `{name}`" for name in unlisted] or ["None."]
        pages[f"{module}.md"] = "\n".join(page) + "\n"
    table.append(f"| All | {totals[0]} | {totals[1]} | {totals[2]} | {totals[3]} |")
    pages["README.md"] = "\n".join(table) + "\n"
    summary = (f"Parity with Apple's headers (`scripts/parity.py`, [Parity/](Parity/README.md)): {totals[1]} of "
               f"{totals[0]} names of Core Media, Core Video, Image I/O, VideoToolbox, AVFoundation and AVFAudio are here; "
               f"{totals[2]} more are listed with the reason they are not, and {totals[3]} are not listed yet.")
    return pages, summary


def main():
    check = "--check" in sys.argv[1:]
    flags = compiler_flags()
    results = {}
    for listing in sorted((PARITY / "Apple").glob("*.txt")):
        module = listing.stem
        names = apple_names(module)
        results[module] = (names, missing_names(flags, module, names), remaining_mentions(module))
        print(f"{module}: {len(names) - len(results[module][1])} of {len(names)} present")
    pages, summary = render(results)
    readme = (ROOT / "README.md").read_text()
    marked = re.sub(r"(<!-- parity -->\n).*?(\n<!-- /parity -->)", lambda m: m.group(1) + summary + m.group(2), readme, flags=re.S)
    stale = [name for name, text in pages.items() if not (PARITY / name).exists() or (PARITY / name).read_text() != text]
    if marked != readme:
        stale.append("README.md (its parity line)")
    if "<!-- parity -->" not in readme:
        stale.append("README.md (no <!-- parity --> line)")
    if check:
        if stale:
            sys.exit("parity: out of date with the package or its Remaining lists: " + ", ".join(stale) + "; run python3 scripts/parity.py")
        print("parity: the files say what the package has")
        return
    for name, text in pages.items():
        (PARITY / name).write_text(text)
    (ROOT / "README.md").write_text(marked)
    print(summary)


if __name__ == "__main__":
    main()
