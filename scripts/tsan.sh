#!/usr/bin/env bash
# Runs the concurrency-heavy test suites under ThreadSanitizer (a build of its own in
# .build-tsan) and fails on any report. scripts/tsan-suppressions.txt names the pools' reuse of
# buffers, which the sanitizer cannot see is ordered (the file says why it is).
# usage: scripts/tsan.sh [extra swift test arguments]
set -euo pipefail
cd "$(dirname "$0")/.."
suites="AVPlayerTests|AVPlayerLayerTests|VideoDataOutputTests|AudioDataOutputTests|SessionGraphTests|SessionNotificationTests|ConfigurationAtomicityTests|DeviceControlTests|VirtualSceneTests|VirtualClockTests"
# Tests that assert frame rates are left out: the sanitizer slows the frame path several times
# over, and the code they cover runs in the suites' other tests.
rates="testDeliveredRateIsWithinFivePercent|testSixtyFramesPerSecond|testMinFrameDurationCapsTheRate|testDeviceFrameDurationSetsTheRate"
swift build --build-tests --sanitize=thread --scratch-path .build-tsan
# exitcode: a run with any report fails even when every test passed.
export TSAN_OPTIONS="suppressions=$PWD/scripts/tsan-suppressions.txt exitcode=66 halt_on_error=0"
swift test --skip-build --sanitize=thread --scratch-path .build-tsan --filter "$suites" --skip "$rates" "$@"
