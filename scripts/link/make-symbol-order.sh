#!/usr/bin/env bash
# Writes scripts/link/avcapture.order: the functions avcapture runs as it starts, as `--help` and
# `devices` run it, in the order a callgrind profile first lists them. The release link places
# them first in the program's code (lld's --symbol-ordering-file), so a start touches a few
# contiguous pages of code instead of some hundred scattered ones, each of which the kernel maps
# with its neighbours (fault-around, 64 KB): `avcapture --help` keeps about 3 MB less resident.
#
#   bash scripts/link/make-symbol-order.sh [path/to/avcapture]
#
# Run it on a release build (the default: .build/release/avcapture, built if missing) after
# changes that move what the commands run at start; a stale list only orders less, since names it
# no longer finds are skipped. Needs valgrind and python3.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
program="${1:-$root/.build/release/avcapture}"
if [ ! -x "$program" ]; then
    (cd "$root" && source scripts/build-flags.sh && swift build -c release --product avcapture "${release_flags[@]}")
fi
command -v valgrind >/dev/null || { echo "make-symbol-order.sh: valgrind is needed (apt-get install valgrind)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Valgrind cannot read the DWARF 5 the toolchain writes; the symbol table is all it needs here.
objcopy --strip-debug "$program" "$work/avcapture"
profiles=()
for arguments in "--help" "devices"; do
    name=${arguments//[^a-z]/}
    # shellcheck disable=SC2086 # each entry is a command's words
    valgrind --tool=callgrind --demangle=no \
        --callgrind-out-file="$work/$name.callgrind" "$work/avcapture" $arguments >/dev/null 2>"$work/$name.log" ||
        { cat "$work/$name.log" >&2; exit 1; }
    profiles+=("$work/$name.callgrind")
done
python3 "$here/callgrind-functions.py" avcapture "${profiles[@]}" >"$here/avcapture.order"
echo "make-symbol-order.sh: $(wc -l <"$here/avcapture.order") functions in scripts/link/avcapture.order"
