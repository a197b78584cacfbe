#!/usr/bin/env bash
# Writes scripts/link/avcapture.order: the functions avcapture runs as it starts, as `--help` and
# `devices` run it, then those a short recording runs, in the order callgrind's profiles first
# list them (`devices` alone and, where PipeWire's packages are installed, with a private PipeWire
# stack answering); then the constants `--help` and `devices` read, in the order lackey's traces first
# show them. The release link places them first in the program's code and constants (lld's
# --symbol-ordering-file), so that a start touches a few contiguous pages instead of some
# hundred scattered ones, each of which the kernel maps with its neighbours (fault-around, 64 KB).
#
#   bash scripts/link/make-symbol-order.sh [path/to/avcapture]
#
# Run it on a release build (the default: .build/release/avcapture, built if missing) after
# changes that move what the commands run at start; a stale list only orders less, since names it
# no longer finds are skipped. SwiftPM does not see the list change: remove the release avcapture
# (or touch one of its sources) so that the next build links it with the new list. Needs valgrind
# and objcopy (installed with `scripts/install-deps.sh --with-peers`) and python3.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
program="${1:-$root/.build/release/avcapture}"
command -v valgrind >/dev/null && command -v objcopy >/dev/null || bash "$root/scripts/install-deps.sh" --with-peers
if [ ! -x "$program" ]; then
    (cd "$root" && source scripts/build-flags.sh && swift build -c release --product avcapture "${release_flags[@]}")
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Valgrind gives up on the debug information of this link; the symbol table is all it needs here.
objcopy --strip-debug "$program" "$work/avcapture"
profiles=()
profile() {
    local name=$1
    shift
    ${profile_env:-} valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/$name.callgrind" "$work/avcapture" "$@" \
        >/dev/null 2>"$work/$name.log" || { cat "$work/$name.log" >&2; exit 1; }
    profiles+=("$work/$name.callgrind")
}
# `devices` where a PipeWire server and pipewire-pulse answer (the private stack of
# scripts/servers/pipewire.sh, when its packages are installed): the listing then runs the
# PipeWire and PulseAudio backends' code as well.
servers=""
if command -v pipewire >/dev/null && command -v wireplumber >/dev/null && command -v pipewire-pulse >/dev/null; then
    servers="$work/servers"
    trap 'bash "$root/scripts/servers/pipewire.sh" stop "$servers" 2>/dev/null; rm -rf "$work"' EXIT
    server_env=$(bash "$root/scripts/servers/pipewire.sh" start "$servers")
fi
# The stack's client settings (its `export NAME=VALUE` lines) as `env` arguments.
with_servers() { env $(sed -n 's/^export //p' <<<"$server_env") "$@"; }
profile help --help
profile devices devices
[ -z "$servers" ] || profile_env=with_servers profile devices-servers devices
# Two seconds of the virtual camera and microphone recorded: the capture, conversion and
# encoding code a recording keeps running, after what every start runs.
profile record record --seconds 2 --preset 1280x720 --fast "$work/movie.mov"
python3 "$here/callgrind-functions.py" avcapture "${profiles[@]}" >"$work/functions"
# Then the constant data `--help` and `devices` read, as lackey traces it: the Swift runtime reads
# every protocol conformance's descriptor at its first lookup, and a few type and method
# descriptors, scattered among 38 MB of .rodata; placed together, they are a few windows of it.
data() {
    ${data_env:-} valgrind --tool=lackey --trace-mem=yes --log-fd=3 "$work/avcapture" "$@" 3>&1 >/dev/null 2>"$work/lackey.log" |
        python3 "$here/lackey-data-symbols.py" "$work/avcapture" || { cat "$work/lackey.log" >&2; exit 1; }
}
{ data --help; data devices; [ -z "$servers" ] || data_env=with_servers data devices; } | awk '!seen[$0]++' >"$work/data"
cat "$work/functions" "$work/data" >"$here/avcapture.order"
echo "make-symbol-order.sh: $(wc -l <"$work/functions") functions and $(wc -l <"$work/data") constants in scripts/link/avcapture.order"
