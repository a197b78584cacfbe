#!/usr/bin/env bash
# Probes the release avcapture as an attacker and a careless user would (scripts/probes/hostile.py):
# races in the live view, crowds of connections, planted links, decoder bombs, damaged movies and
# broken pipes, on loopback only. Builds the release binary if need be; AVCAPTURE_BUILT names a
# folder holding one built elsewhere (CI's fresh machine) instead, with its resource bundle beside it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/build-flags.sh
binary=.build/release/avcapture
[ -z "${AVCAPTURE_BUILT:-}" ] || binary=$AVCAPTURE_BUILT/avcapture
[ -x "$binary" ] || [ -n "${AVCAPTURE_BUILT:-}" ] || swift build -c release --product avcapture "${release_flags[@]}"
[ -x "$binary" ] || { echo "probe.sh: no avcapture in $AVCAPTURE_BUILT" >&2; exit 1; }
python3 scripts/probes/hostile.py "$binary"
