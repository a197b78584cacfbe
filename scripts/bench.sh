#!/usr/bin/env bash
# Installs the benchmark's peers (GStreamer), then runs the benchmarks in release mode.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --with-peers
swift build -c release --product avbench
.build/release/avbench "$@"
