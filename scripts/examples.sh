#!/usr/bin/env bash
# Builds the examples (Examples/, one package depending on this one by path) and runs each on the
# virtual devices in a temporary folder, checking what it made: a movie with pictures and sound,
# photos in the Pictures folder and their strip, the QR code the virtual camera is shown, a
# thumbnail and a 640x480 copy of each movie, a sound file of the length asked for, and two clips
# crossfaded into a titled movie.
#
#   scripts/examples.sh                build the examples by path, then run them
#   scripts/examples.sh --built DIR    run the examples already built in DIR (scripts/dependent-app.sh
#                                      builds them against the package by version, as CI does)
set -euo pipefail
cd "$(dirname "$0")/../Examples"
started=$SECONDS
if [ "${1:-}" = --built ]; then
  bin=$(cd "$2" && pwd)
else
  source ../scripts/build-flags.sh
  bash ../scripts/install-deps.sh
  swift build "${debug_flags[@]}"
  echo "examples.sh: the examples built in $((SECONDS - started)) s"
  bin=$(swift build --show-bin-path)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
# The virtual devices, and a home of its own, so photos land in $work/home/Pictures.
export LINUXAVFOUNDATION_DEVICES=virtual HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config"
mkdir -p "$HOME"
fail() { echo "examples.sh: $*" >&2; exit 1; }
probe() { ffprobe -v error -show_entries "$2" -of default=noprint_wrappers=1:nokey=1 "$1"; }
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { exit !((a - b) ^ 2 <= t ^ 2) }'; }

mkdir -p movies
"$bin/CameraRecorder" movies/first.mov 2
"$bin/CameraRecorder" movies/second.mov 2
for movie in movies/first.mov movies/second.mov; do
  [ "$(probe "$movie" stream=codec_type | sort | tr '\n' ' ')" = "audio video " ] || fail "$movie has not one picture and one sound track"
  near "$(probe "$movie" format=duration)" 2 0.3 || fail "$movie does not last about 2 s"
done

"$bin/PhotoBooth" 3 strip.jpg
[ "$(find "$HOME/Pictures" -name '*.jpg' | wc -l)" -eq 3 ] || fail "PhotoBooth did not leave three photos in the Pictures folder"
width=$(probe strip.jpg stream=width) height=$(probe strip.jpg stream=height)
[ "$width" -gt $((3 * height)) ] || fail "the strip is ${width}x$height, not three pictures side by side"

"$bin/BarcodeScanner" 5 | tee codes.txt
grep -qx "org.iso.QRCode: https://swift.org" codes.txt || fail "BarcodeScanner did not read the QR code the virtual camera was shown"

"$bin/ThumbnailService" movies thumbnails | tr '\r' '\n' | grep -v '^  \[' || true
for name in first second; do
  [ "$(probe "thumbnails/$name.jpg" stream=width)" -le 320 ] || fail "no thumbnail of $name within 320 pixels"
  [ "$(probe "thumbnails/$name-640x480.mp4" stream=width | head -1)" -eq 640 ] || fail "no 640-wide copy of $name"
done

"$bin/AudioRecorder" sound.caf 1.5 | tail -3
near "$(probe sound.caf format=duration)" 1.5 0.3 || fail "the sound file does not last about 1.5 s"

"$bin/TinyEditor" movies/first.mov movies/second.mov edit.mov "Harbour and hills"
near "$(probe edit.mov format=duration)" 3 0.3 || fail "two 2 s clips crossfaded for 1 s do not make about 3 s"
[ "$(probe edit.mov format_tags=title)" = "Harbour and hills" ] || fail "the edit is not titled"
echo "examples.sh: the six examples ran on the virtual devices and made what they should ($((SECONDS - started)) s)"
