#!/usr/bin/env bash
# Installs the benchmark's peers (GStreamer, libjpeg-turbo's tools), then runs the benchmarks in
# release mode: `scripts/bench.sh [case ...] [seconds-per-case]`, cases frames, encode, vtcodec, record, rotate, photo,
# livephoto, scan, scancorpus, faces, facestart, stream, export, reader, stretch, audiofile, engine, renderthread, pipewire, mjpeg, hls, clap, pixeltransfer, liveview, images, heics, coreimage, coreimagechain, photopanel (all of them when none is named), cameras, thumbnails and timedmetadata (only when named), and v4l2 (in the VM).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/build-flags.sh
bash scripts/install-deps.sh --with-peers
swift build -c release --product avbench "${bench_flags[@]}"
swift build -c release --product avcapture "${release_flags[@]}"
# The start-up case's floors (with Foundation and without), linked as avcapture is.
swift build -c release --product avbench-floor "${release_flags[@]}"
swift build -c release --product avbench-floor-parser "${release_flags[@]}"
bash scripts/fetch-test-pictures.sh
# ZXing-C++'s own reader, the same version as the project's, for the scancorpus case.
[ -d .build/bench-python/zxingcpp ] || ls .build/bench-python 2>/dev/null | grep -q '^zxingcpp' \
  || /usr/bin/python3 -m pip install -q --target .build/bench-python "zxing-cpp==3.1.1" pillow \
  || echo "ZXing-C++'s Python module could not be installed; scancorpus compares with zbarimg only" >&2
if [ -z "${PIPEWIRE_RUNTIME_DIR:-}" ] && { [ $# -eq 0 ] || [[ " $* " == *" pipewire "* ]] || [[ " $* " == *" cameras "* ]] || ! printf '%s\n' "$@" | grep -qv '^[0-9.]*$'; }; then
  # A private PipeWire stack with a test camera for the pipewire case (and more test cameras
  # for the cameras case, which it names the stack for).
  bash scripts/install-deps.sh --with-servers
  stack=$(mktemp -d)
  trap 'bash scripts/servers/pipewire.sh stop "$stack"; rm -rf "$stack"' EXIT
  eval "$(bash scripts/servers/pipewire.sh start "$stack")"
  export AVBENCH_PIPEWIRE_STACK=$stack
fi
.build/release/avbench "$@"
