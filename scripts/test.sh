#!/usr/bin/env bash
# Installs what the tests need, then runs every test (XCTest and Swift Testing).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/build-flags.sh
bash scripts/install-deps.sh --with-servers
swift build --build-tests "${debug_flags[@]}"
swift test --skip-build "${debug_flags[@]}" "$@"
