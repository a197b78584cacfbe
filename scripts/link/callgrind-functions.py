"""Prints the mangled names of the functions callgrind profiles saw run in one program.

    python3 callgrind-functions.py PROGRAM-NAME PROFILE...

Each name once, in the order the profiles first list them (profiles made with --demangle=no).
Callgrind's files name each object and function in full once and by a number after that
("fn=(12) name", then "fn=(12)"); lines starting with "c" name a callee, not the function whose
costs follow.
"""

import re
import sys

ENTRY = re.compile(r"^(c?)(ob|fn)=\((\d+)\)(?: (.*))?$")


def functions(program, paths):
    seen = {}
    for path in paths:
        names = {"ob": {}, "fn": {}}
        current_object = None
        with open(path, errors="replace") as profile:
            for line in profile:
                match = ENTRY.match(line.rstrip("\n"))
                if not match:
                    continue
                callee, kind, number, name = match.groups()
                if name is not None:
                    names[kind][number] = name
                name = names[kind].get(number)
                if callee:
                    continue
                if kind == "ob":
                    current_object = name
                elif current_object and current_object.split("/")[-1] == program and name:
                    seen.setdefault(name, None)
    return list(seen)


if __name__ == "__main__":
    for function in functions(sys.argv[1], sys.argv[2:]):
        print(function)
