#!/usr/bin/env bash
# Fuzzes the movie reading shim (FFmpeg's demuxers and decoders behind MovieReader.c) with
# libFuzzer and AddressSanitizer, starting from the kept corpus, and merges what it finds that
# is new into it.
# usage: scripts/fuzz.sh [seconds]          fuzz for a while (default 600) and keep new inputs
#        scripts/fuzz.sh --replay           run every kept input once (CI): fails on a crash or hang
#        scripts/fuzz.sh --seed             make the starting corpus with the ffmpeg command
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=Fuzz/corpus/movie-reader
build=.build-fuzz
mkdir -p "$build" "$corpus"
binary=$build/movie-reader-fuzzer
# The whole shim (FFmpeg is loaded by it, as in the library), rebuilt when any of it changed.
stale=false
for source in Fuzz/MovieReaderFuzzer.c Sources/CMediaCodecs/*.c Sources/CMediaCodecs/*.h Sources/CMediaCodecs/include/*.h; do
    [ -x "$binary" ] && [ ! "$source" -nt "$binary" ] || stale=true
done
if $stale; then
    clang -g -O1 -fuse-ld=lld -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I Sources/CMediaCodecs/include \
        Fuzz/MovieReaderFuzzer.c Sources/CMediaCodecs/*.c -o "$binary"
fi
# FFmpeg's own leaks at exit are not the reader's; its messages go nowhere.
export ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1"
case "${1:-600}" in
--seed)
    seeds=$(mktemp -d)
    make() { ffmpeg -v error -y "$@"; }
    make -f lavfi -i testsrc2=s=64x48:r=10:d=0.5 -f lavfi -i sine=d=0.5 -c:v libx264 -g 3 -bf 1 -c:a aac -shortest "$seeds/h264-aac.mp4"
    make -f lavfi -i testsrc2=s=64x48:r=10:d=0.5 -c:v libx265 -x265-params log-level=none "$seeds/hevc.mov"
    make -f lavfi -i testsrc2=s=64x48:r=10:d=0.3 -c:v mjpeg "$seeds/mjpeg.mov"
    make -f lavfi -i sine=d=0.3 -c:a aac "$seeds/aac.m4a"
    make -f lavfi -i sine=d=0.3 -c:a pcm_s16le "$seeds/pcm.mov"
    make -f lavfi -i testsrc2=s=64x48:r=10:d=0.3 -c:v libx264 -movflags +faststart -metadata title=t "$seeds/faststart.mp4"
    make -f lavfi -i testsrc2=s=64x48:r=10:d=0.3 -c:v libx264 -metadata:s:v rotate=90 "$seeds/rotated.mov"
    cp "$seeds"/* "$corpus"/
    rm -rf "$seeds"
    ls -l "$corpus"
    ;;
--replay)
    inputs=("$corpus"/*)
    "$binary" -timeout=20 -rss_limit_mb=4096 "${inputs[@]}" 2>&1 | tail -3
    echo "replayed ${#inputs[@]} inputs of $corpus without a crash or hang"
    ;;
*)
    found=$(mktemp -d)
    "$binary" -max_total_time="$1" -timeout=20 -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 "$found" "$corpus" 2>&1 | tail -20
    # Keep only what reaches code the corpus does not.
    "$binary" -merge=1 "$corpus" "$found" 2>&1 | tail -2
    rm -rf "$found"
    echo "corpus: $(ls "$corpus" | wc -l) inputs, $(du -sh "$corpus" | cut -f1)"
    ;;
esac
