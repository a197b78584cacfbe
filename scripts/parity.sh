#!/usr/bin/env bash
# Parity with Apple's headers: builds the measured modules (debug) and checks that Parity/ and the
# README's parity line say what the package has now. `bash scripts/parity.sh --write` rewrites them.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/build-flags.sh
for target in AppleStyleCode ImageIO VideoToolbox; do swift build --target "$target" "${debug_flags[@]}"; done
if [ "${1:-}" = "--write" ]; then python3 scripts/parity.py; else python3 scripts/parity.py --check; fi
