#!/usr/bin/env bash
# Probes the release avcapture as an attacker and a careless user would (scripts/probes/hostile.py):
# races in the live view, crowds of connections, planted links, decoder bombs, damaged movies and
# broken pipes, on loopback only. Builds the release binary if need be.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/build-flags.sh
[ -x .build/release/avcapture ] || swift build -c release --product avcapture "${release_flags[@]}"
python3 scripts/probes/hostile.py .build/release/avcapture
