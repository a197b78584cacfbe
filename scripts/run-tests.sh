#!/usr/bin/env bash
# Runs the built test bundle (scripts/test.sh builds it): each XCTest class in a process of its
# own, several at a time, the longest first by the times the last run kept, then the Swift Testing
# suites beside them. Each process has its own temporary and runtime folders, so the device
# configuration locks (`lockForConfiguration` is exclusive across processes), scratch files and
# private servers' sockets of one class never meet another's. A failing, crashing or hanging (20
# minutes) class's whole output is printed; the counts and the wall time come last.
#   --jobs N     processes at a time (default 3 per core: most tests wait on frames and servers)
#   --serial     everything in one process, as `swift test` runs it
#   --filter RE  only the tests (Module.Class/testName, or a Swift Testing test's name) RE matches
#   --skip RE    not the tests RE matches
#   --fast       the fast tier: the targets of Apple's types and the units, no server, camera
#                stream or process of their own (about a minute of work; CI's first test stage)
#   --bundle B   the test bundle B (default: the debug build's), such as ThreadSanitizer's
#   other arguments go to `swift test`, as do all with --serial
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/build-flags.sh

jobs=$((3 * $(nproc)))
filter= skip= bundle=$PWD/.build/debug/LinuxAVFoundationPackageTests.xctest
while [ $# -gt 0 ]; do
    case "$1" in
    --jobs) jobs=$2; shift 2 ;;
    --filter) filter=$2; shift 2 ;;
    --skip) skip=$2; shift 2 ;;
    --fast)
        filter='^(UnitTests|CoreMediaTests|CoreVideoTests|CoreGraphicsTests|CoreImageTests|ImageIOTests|CombineTests|VideoToolboxTests|MediaToolboxTests|PhotosTests|AVFAudioTests)\.'
        shift ;;
    --bundle) bundle=$(realpath "$2"); shift 2 ;;
    --serial) shift; exec swift test --skip-build "${debug_flags[@]}" "$@" ;;
    *) exec swift test --skip-build "${debug_flags[@]}" "$@" ;;
    esac
done

[ -x "$bundle" ] || { echo "run-tests.sh: no test bundle at $bundle: run scripts/test.sh" >&2; exit 2; }
times=$(dirname "$bundle")/test-times.txt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/logs" "$work/results"
started=$EPOCHREALTIME

# Each class's tests, and what its process is given: the class, or the chosen tests of it.
"$bundle" --list-tests 2>/dev/null | grep -E '^[A-Za-z0-9_]+\.[A-Za-z0-9_]+/' > "$work/tests" || true
grep -E -- "${filter:-.}" "$work/tests" | { if [ -n "$skip" ]; then grep -vE -- "$skip"; else cat; fi; } > "$work/chosen" || true
awk -F/ 'FILENAME == ARGV[1] { total[$1]++; next }
    { chosen[$1] = ($1 in chosen ? chosen[$1] "," : "") $0; count[$1]++ }
    END { for (class in chosen) print class, (count[class] == total[class] ? class : chosen[class]) }' \
    "$work/tests" "$work/chosen" > "$work/arguments"
# The slowest of the last run first; classes it did not run come first of all.
touch "$times"
awk 'FILENAME == ARGV[1] { seconds[$2] = $1; next } { print ($1 in seconds ? seconds[$1] : 1e9), $1 }' "$times" "$work/arguments" |
    sort -k1,1gr | cut -d' ' -f2 > "$work/order"
# The Swift Testing suites run as one more process.
echo "swift-testing" >> "$work/order"
count=$(wc -l < "$work/order")
echo "run-tests.sh: $count processes, $jobs at a time"

run_one() {
    # Short: the servers' sockets inside it must fit in a socket address's 108 bytes.
    local name=$1 folder status=0 from=$EPOCHREALTIME
    folder=$(mktemp -d "${TMPDIR:-/tmp}/lavf-XXXXXX")
    local arguments
    if [ "$name" = swift-testing ]; then
        arguments=(--testing-library swift-testing)
        [ -z "$filter" ] || arguments+=(--filter "$filter")
        [ -z "$skip" ] || arguments+=(--skip "$skip")
    else
        arguments=("$(awk -v class="$name" '$1 == class { print $2 }' "$work/arguments")")
    fi
    # A process that hangs is ended after 20 minutes (exit status 124), its output kept.
    TMPDIR=$folder XDG_RUNTIME_DIR=$folder timeout --kill-after=10 1200 "$bundle" "${arguments[@]}" > "$work/logs/$name.log" 2>&1 < /dev/null ||
        status=$?
    # Swift Testing says 69 (EX_UNAVAILABLE) when a filter chose none of its tests.
    if [ "$name" = swift-testing ] && [ -n "$filter$skip" ] && [ "$status" = 69 ]; then status=0; fi
    local seconds
    seconds=$(awk -v a="$from" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
    echo "$status $seconds" > "$work/results/$name"
    printf '%-7s %6s s  %s\n' "$([ "$status" = 0 ] && echo passed || echo FAILED)" "$seconds" "$name"
    rm -rf "$folder"
}
export -f run_one
export work bundle filter skip
xargs -P "$jobs" -I{} bash -c 'run_one "$1"' _ {} < "$work/order"

# What each process said: XCTest's last "Executed" line, Swift Testing's last "Test run" line.
failed=() executed=0 skipped=0 failures=0
: > "$work/times"
while read -r name; do
    read -r status seconds < "$work/results/$name" || { status=missing seconds=0; }
    [ "$name" = swift-testing ] || echo "$seconds $name" >> "$work/times"
    log="$work/logs/$name.log"
    if [ "$name" = swift-testing ]; then
        summary=$(grep -a "Test run with" "$log" | tail -1 || true)
        ran=$(sed -nE 's/.*Test run with ([0-9]+) tests?.*/\1/p' <<< "$summary")
        wrong=$(sed -nE 's/.* with ([0-9]+) issues?.*/\1/p' <<< "$summary")
    else
        summary=$(grep -a "Executed [0-9]* test" "$log" | tail -1 || true)
        ran=$(sed -nE 's/.*Executed ([0-9]+) tests?.*/\1/p' <<< "$summary")
        wrong=$(sed -nE 's/.* ([0-9]+) failures?.*/\1/p' <<< "$summary")
        skipped=$((skipped + $(sed -nE 's/.* ([0-9]+) tests? skipped.*/\1/p' <<< "$summary" | grep . || echo 0)))
    fi
    executed=$((executed + ${ran:-0}))
    failures=$((failures + ${wrong:-0}))
    if [ "$status" != 0 ] || [ -z "$summary" ]; then failed+=("$name"); fi
done < "$work/order"
# Kept for the next run's order (a filtered run adds to what is known).
awk 'FILENAME == ARGV[1] { seconds[$2] = $1; next } !($2 in seconds) { print } END { for (name in seconds) print seconds[name], name }' \
    "$work/times" "$times" > "$work/kept" && mv "$work/kept" "$times"

for name in "${failed[@]}"; do
    echo
    echo "===== $name: exit status $(cut -d' ' -f1 < "$work/results/$name" 2>/dev/null || echo missing)"
    cat "$work/logs/$name.log"
done
wall=$(awk -v a="$started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')
echo
echo "run-tests.sh: $executed tests ($skipped skipped) in $count processes, $failures failures, ${#failed[@]} processes failed, wall time $wall s with $jobs at a time"
[ ${#failed[@]} -eq 0 ]
