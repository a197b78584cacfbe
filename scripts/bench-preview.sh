#!/usr/bin/env bash
# The live view's benchmark (Benchmarks/preview/bench_preview.py): a headless Chromium watching
# `avcapture preview` on the virtual camera and `avcapture play --preview` next to ffmpeg, then ustreamer and `avcapture preview` serving the
# same V4L2 camera (vivid, in the VM) side by side. usage: scripts/bench-preview.sh [seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/build-flags.sh
seconds=${1:-20}
bash scripts/install-deps.sh --with-servers --with-peers
swift build -c release --product avcapture "${release_flags[@]}"
/usr/bin/python3 Benchmarks/preview/bench_preview.py .build/release/avcapture browser --seconds "$seconds"
/usr/bin/python3 Benchmarks/preview/bench_preview.py .build/release/avcapture player --seconds "$seconds"
bash scripts/vm/run-in-vm.sh "/usr/bin/python3 Benchmarks/preview/bench_preview.py .build/release/avcapture peer --v4l2 /dev/video0 --seconds $seconds"
