#!/usr/bin/env python3
"""Writes Parity/Apple/<Module>.txt: the names Apple's SDK headers declare for each module the
parity check measures, one per line as `<kind> <name>` (kind: type or value), sorted.

The names come from objc2's generated translation of Apple's headers (the repository
madsmtm/objc2-generated, one folder per framework), so that only public, documented names are
counted. C frameworks give their types, functions, constants and globals; AVFoundation and AVFAudio
give their classes and protocols (their Objective-C constants have other names in Swift).

    python3 scripts/parity-apple.py /path/to/objc2-generated
"""
import pathlib
import re
import subprocess
import sys

C_MODULES = ["CoreMedia", "CoreVideo", "ImageIO", "VideoToolbox"]
CLASS_MODULES = ["AVFoundation", "AVFAudio"]

FUNCTION = re.compile(r"\bfn ([A-Z][A-Za-z0-9_]*)\s*[(<]")
STATIC = re.compile(r"\bpub static ([A-Za-z_][A-Za-z0-9_]*)\s*:")
CONSTANT = re.compile(r"^pub const ([A-Za-z_][A-Za-z0-9_]*)\s*:", re.M)
TOP_TYPE = re.compile(r"^pub (?:struct|type|enum) ([A-Za-z_][A-Za-z0-9_]*)", re.M)
CLASS = re.compile(r"^\s+pub struct ([A-Za-z_][A-Za-z0-9_]*);", re.M)
PROTOCOL = re.compile(r"^\s+pub unsafe trait ([A-Za-z_][A-Za-z0-9_]*)", re.M)


def files(repo, module):
    listing = subprocess.run(["git", "-C", repo, "ls-tree", "--name-only", "HEAD", module + "/"], capture_output=True, text=True, check=True)
    for path in listing.stdout.split():
        if path.endswith(".rs") and not path.endswith("/mod.rs"):
            yield path, subprocess.run(["git", "-C", repo, "show", "HEAD:" + path], capture_output=True, text=True, check=True).stdout


def names(repo, module):
    found = set()
    for _, text in files(repo, module):
        types = set(CLASS.findall(text)) | set(PROTOCOL.findall(text))
        if module in C_MODULES:
            types |= set(TOP_TYPE.findall(text))
            values = set(FUNCTION.findall(text)) | set(STATIC.findall(text)) | set(CONSTANT.findall(text))
            found |= {("value", name) for name in values}
        found |= {("type", name) for name in types}
    return sorted(found, key=lambda item: (item[1], item[0]))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    repo = sys.argv[1]
    out = pathlib.Path(__file__).resolve().parent.parent / "Parity" / "Apple"
    out.mkdir(parents=True, exist_ok=True)
    commit = subprocess.run(["git", "-C", repo, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    for module in C_MODULES + CLASS_MODULES:
        listed = names(repo, module)
        header = f"# {module}: the names Apple's headers declare (objc2-generated {commit[:12]}); scripts/parity-apple.py writes this file.\n"
        (out / f"{module}.txt").write_text(header + "".join(f"{kind} {name}\n" for kind, name in listed))
        print(f"{module}: {len(listed)} names")


if __name__ == "__main__":
    main()
