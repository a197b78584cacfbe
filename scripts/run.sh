#!/usr/bin/env bash
# Installs what avcapture needs, then lists the capture devices and captures from the default
# camera and microphone for a few seconds. With no hardware, the virtual devices stand in.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
swift build -c release --product avcapture
.build/release/avcapture devices
.build/release/avcapture monitor --seconds "${SECONDS_TO_CAPTURE:-5}" "$@"
