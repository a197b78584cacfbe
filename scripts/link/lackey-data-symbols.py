"""Prints the constant data symbols one program read, in the order it first read them.

    valgrind --tool=lackey --trace-mem=yes --log-fd=3 PROGRAM ... 3>&1 >/dev/null |
        python3 lackey-data-symbols.py PROGRAM

Reads lackey's trace (" L addr,size" for a load, "I" for an instruction) on standard input and
prints each symbol of the program's .rodata that a load or store touched, once, in first-touch
order. Valgrind maps a position-independent program at 0x108000 on amd64; the trace must show
the program's _start running there, or nothing is printed and the exit status is 1.
"""

import bisect
import subprocess
import sys

BASE = 0x108000


def section(program, name):
    out = subprocess.run(["readelf", "-SW", program], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        fields = line.replace("[ ", "[").split()
        if len(fields) > 5 and fields[1] == name:
            return int(fields[3], 16), int(fields[5], 16)
    raise SystemExit(f"lackey-data-symbols.py: {program} has no {name} section")


def symbols(program):
    out = subprocess.run(["nm", "-n", "--defined-only", program], capture_output=True, text=True, check=True).stdout
    table = []
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 3:
            table.append((int(fields[0], 16), fields[2]))
    return table


def main(program):
    start, size = section(program, ".rodata")
    table = [(address, name) for address, name in symbols(program) if start <= address < start + size]
    addresses = [address for address, _ in table]
    entry = next((address for address, name in symbols(program) if name == "_start"), None)
    low, high = BASE + start, BASE + start + size
    seen = {}
    ran_entry = False
    entry_line = None if entry is None else f"I  {BASE + entry:08x},"
    for line in sys.stdin:
        if line[0] == "I":
            if not ran_entry and entry_line and line.startswith(entry_line):
                ran_entry = True
            continue
        if line[0] != " " or line[1] not in "LSM":
            continue
        address = int(line[3 : line.index(",")], 16)
        if not (low <= address < high):
            continue
        index = bisect.bisect_right(addresses, address - BASE) - 1
        if index >= 0:
            seen.setdefault(table[index][1], None)
    if not ran_entry:
        print(f"lackey-data-symbols.py: the trace does not show {program}'s _start at {BASE:#x}", file=sys.stderr)
        return 1
    for name in seen:
        print(name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
