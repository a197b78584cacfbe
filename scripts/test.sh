#!/usr/bin/env bash
# Installs what the tests need, builds them, then runs every test (XCTest and Swift Testing), each
# XCTest class in a process of its own, several at a time (scripts/run-tests.sh; its options, such
# as --filter, pass through).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/build-flags.sh
bash scripts/install-deps.sh --with-servers
swift build --build-tests "${debug_flags[@]}"
bash scripts/run-tests.sh "$@"
