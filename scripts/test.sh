#!/usr/bin/env bash
# Installs what the tests need, then runs every test (XCTest and Swift Testing).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --with-servers
swift build --build-tests
swift test --skip-build "$@"
