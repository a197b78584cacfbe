#!/usr/bin/env bash
# A long recording from the virtual devices (not in CI): `avcapture record` at 1080p30 with
# audio for an hour by default, its resident memory printed once a minute from outside, then the
# file checked: video packets against the frames the time asks for (none dropped), audio as long
# as video, and a full decode to the end with ffmpeg.
# usage: scripts/soak.sh [minutes (60)] [format (1920x1080@30)]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/build-flags.sh
minutes=${1:-60}
format=${2:-1920x1080@30}
fps=${format##*@}
swift build -c release --product avcapture "${release_flags[@]}" >/dev/null
work=$(mktemp -d)
trap 'kill "$recorder" 2>/dev/null || true; rm -rf "$work"' EXIT
movie="$work/soak.mov"
.build/release/avcapture record "$movie" --seconds $((minutes * 60)) --format "$format" >"$work/record.log" 2>&1 &
recorder=$!
rss() { awk '/^VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$recorder/status" 2>/dev/null || echo 0; }
echo "soak: $minutes min of $format with audio from the virtual devices into $movie"
first="" last=""
for ((minute = 1; minute <= minutes; minute++)); do
  for ((second = 0; second < 60; second++)); do
    kill -0 "$recorder" 2>/dev/null || break 2
    sleep 1
  done
  last=$(rss)
  [ -z "$first" ] && first=$last
  size=$(stat -c %s "$movie" 2>/dev/null || echo 0)
  printf 'minute %3d: resident %7s MB, file %8.1f MB\n' "$minute" "$last" "$(awk -v s="$size" 'BEGIN { print s / 1048576 }')"
done
wait "$recorder" || { echo "soak: avcapture record failed:"; tail -5 "$work/record.log"; exit 1; }
tail -1 "$work/record.log"
packets=$(ffprobe -v error -select_streams v:0 -count_packets -show_entries stream=nb_read_packets -of csv=p=0 "$movie")
video=$(ffprobe -v error -select_streams v:0 -show_entries stream=duration -of csv=p=0 "$movie")
audio=$(ffprobe -v error -select_streams a:0 -show_entries stream=duration -of csv=p=0 "$movie")
expected=$((minutes * 60 * fps))
echo "video: $packets frames of $expected ($((expected - packets)) missing), $video s; audio: $audio s"
if ffmpeg -nostdin -v error -i "$movie" -f null - 2>"$work/decode.log" && [ ! -s "$work/decode.log" ]; then
  echo "decoded to the end without an error"
else
  echo "decoding failed:"; head -5 "$work/decode.log"; exit 1
fi
growth=$(awk -v a="$last" -v b="$first" 'BEGIN { print a - b }')
echo "resident memory: $first MB after the first minute, $last MB at the end ($(printf '%+.1f' "$growth") MB)"
# Verdict: every frame (the last may fall on the limit), audio within two frames of video, and
# memory within 5 % of the first minute's.
ok=1
[ "$packets" -ge $((expected - 1)) ] || ok=0
awk -v v="$video" -v a="$audio" -v f="$fps" 'BEGIN { d = v - a; exit !(d * d < (2 / f) * (2 / f)) }' || ok=0
awk -v g="$growth" -v f="$first" 'BEGIN { exit !(g < f * 0.05) }' || ok=0
[ "$ok" = 1 ] && echo "soak: passed" || { echo "soak: failed"; exit 1; }
