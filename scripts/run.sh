#!/usr/bin/env bash
# Installs what avcapture needs, lists the capture devices, then records a movie from the
# default camera and microphone and shows what was written. With no hardware, the virtual
# devices stand in.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/build-flags.sh
bash scripts/install-deps.sh
swift build -c release --product avcapture "${release_flags[@]}"
.build/release/avcapture devices
movie="${MOVIE:-capture-$(date +%Y%m%d-%H%M%S).mov}"
.build/release/avcapture record "$movie" --seconds "${SECONDS_TO_CAPTURE:-5}" "$@"
ffprobe -v error -show_entries format=duration,size:stream=codec_name,width,height,r_frame_rate -of compact "$movie"
