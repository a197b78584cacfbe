#!/usr/bin/env bash
# Installs the benchmark's peers (GStreamer, libjpeg-turbo's tools), then runs the benchmarks in
# release mode: `scripts/bench.sh [case ...] [seconds-per-case]`, cases frames, encode, record, rotate, photo,
# pipewire, mjpeg (all of them when none is named) and v4l2 (in the VM).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --with-peers
swift build -c release --product avbench
if [ -z "${PIPEWIRE_RUNTIME_DIR:-}" ] && { [ $# -eq 0 ] || [[ " $* " == *" pipewire "* ]] || ! printf '%s\n' "$@" | grep -qv '^[0-9.]*$'; }; then
  # A private PipeWire stack with a test camera for the pipewire case.
  bash scripts/install-deps.sh --with-servers
  stack=$(mktemp -d)
  trap 'bash scripts/servers/pipewire.sh stop "$stack"; rm -rf "$stack"' EXIT
  eval "$(bash scripts/servers/pipewire.sh start "$stack")"
fi
.build/release/avbench "$@"
