#!/usr/bin/env bash
# Fuzzes the shims that read what arrives from outside with libFuzzer and AddressSanitizer,
# starting from each target's kept corpus, and merges what it finds that is new into it:
#   movie-reader  FFmpeg's demuxers and decoders behind MovieReader.c (every movie the library opens)
#   timed-id3     libid3tag behind id3_tags.c (the timed metadata of MPEG-TS and HLS streams)
#   animated-png  FFmpeg's APNG demuxer and decoder behind AnimatedPNG.c (Image I/O's animated PNGs)
# usage: scripts/fuzz.sh [--target NAME] [seconds]   fuzz for a while (default 600) and keep new inputs
#        scripts/fuzz.sh --replay                     run every kept input of every target once (CI): fails on a crash or hang
#        scripts/fuzz.sh --seed                       make the movie reader's starting corpus with the ffmpeg command
set -euo pipefail
cd "$(dirname "$0")/.."
target=movie-reader
if [ "${1:-}" = "--target" ]; then
    target=$2
    shift 2
fi
build=.build-fuzz
mkdir -p "$build"

# Builds one target's fuzzer when any of its sources changed; prints its path.
fuzzer() {
    local name=$1 binary=$build/$1-fuzzer sources includes
    case "$name" in
    movie-reader)
        sources=(Fuzz/MovieReaderFuzzer.c Sources/CMediaCodecs/*.c Sources/CLibraryLoading/*.c)
        includes=(-I Sources/CMediaCodecs/include -I Sources/CLibraryLoading/include)
        ;;
    animated-png)
        sources=(Fuzz/AnimatedPNGFuzzer.c Sources/CMediaCodecs/*.c Sources/CLibraryLoading/*.c)
        includes=(-I Sources/CMediaCodecs/include -I Sources/CLibraryLoading/include)
        ;;
    timed-id3)
        sources=(Fuzz/TimedID3Fuzzer.c Sources/CID3Tags/*.c Sources/CLibraryLoading/*.c)
        includes=(-I Sources/CID3Tags/include -I Sources/CLibraryLoading/include)
        ;;
    *)
        echo "fuzz.sh: no target $name; the targets are movie-reader, timed-id3 and animated-png" >&2
        exit 2
        ;;
    esac
    local stale=false source
    for source in "${sources[@]}" Sources/CMediaCodecs/*.h Sources/CMediaCodecs/include/*.h Sources/CID3Tags/include/*.h Sources/CLibraryLoading/include/*.h; do
        [ -x "$binary" ] && [ ! "$source" -nt "$binary" ] || stale=true
    done
    if $stale; then
        clang -g -O1 -fuse-ld=lld -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined "${includes[@]}" \
            "${sources[@]}" -ldl -o "$binary" >&2
    fi
    echo "$binary"
}
# The libraries' own leaks at exit are not the shims'; their messages go nowhere.
export ASAN_OPTIONS="detect_leaks=0:allocator_may_return_null=1"
case "${1:-600}" in
--seed)
    corpus=Fuzz/corpus/movie-reader
    mkdir -p "$corpus"
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
    for name in movie-reader timed-id3 animated-png; do
        binary=$(fuzzer "$name")
        inputs=(Fuzz/corpus/"$name"/*)
        "$binary" -timeout=20 -rss_limit_mb=4096 "${inputs[@]}" 2>&1 | tail -3
        echo "replayed ${#inputs[@]} inputs of Fuzz/corpus/$name without a crash or hang"
    done
    ;;
*)
    binary=$(fuzzer "$target")
    corpus=Fuzz/corpus/$target
    found=$(mktemp -d)
    "$binary" -max_total_time="$1" -timeout=20 -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 "$found" "$corpus" 2>&1 | tail -20
    # Keep only what reaches code the corpus does not.
    "$binary" -merge=1 "$corpus" "$found" 2>&1 | tail -2
    rm -rf "$found"
    echo "corpus: $(ls "$corpus" | wc -l) inputs, $(du -sh "$corpus" | cut -f1)"
    ;;
esac
