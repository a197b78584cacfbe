#!/usr/bin/env bash
# What an app that only captures pays for depending on the package: clones the committed state,
# tags it with CHANGELOG.md's newest version, makes an app that imports AVFoundation alone and takes
# one frame from a video data output, builds it from nothing in debug and in release, and prints
# the build times, the binary's size, the shared libraries it is linked against, and those mapped
# once it has captured a frame (the rest of the package's libraries load only when used).
#   scripts/dependent-cost.sh              with the package's default traits (about five minutes on two cores; not part of CI)
#   scripts/dependent-cost.sh --no-traits  without them (no faces, no voice processing: `traits: []`)
set -euo pipefail
traits=""
[ "${1:-}" = --no-traits ] && traits=", traits: []"
project=$(cd "$(dirname "$0")/.." && pwd)
bash "$project/scripts/install-deps.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone -q "$project" "$work/LinuxAVFoundation"
version=$(sed -n 's/^## \([0-9][0-9.]*\).*/\1/p' "$project/CHANGELOG.md" | head -1)
git -C "$work/LinuxAVFoundation" tag -f "$version" >/dev/null
mkdir -p "$work/app/Sources/app"
cat > "$work/app/Package.swift" <<MANIFEST
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "app",
    dependencies: [.package(url: "file://$work/LinuxAVFoundation", .upToNextMinor(from: "$version")$traits)],
    targets: [.executableTarget(name: "app", dependencies: [.product(name: "AVFoundation", package: "LinuxAVFoundation")])]
)
MANIFEST
cat > "$work/app/Sources/app/main.swift" <<'SOURCE'
import AVFoundation

/// Signals the first frame.
final class FirstFrame: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    let taken = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var seen = false
    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        if lock.withLock({ defer { seen = true }; return !seen }) { taken.signal() }
    }
}

let session = AVCaptureSession()
session.addInput(try AVCaptureDeviceInput(device: AVCaptureDevice.default(for: .video)!))
let output = AVCaptureVideoDataOutput()
let frames = FirstFrame()
output.setSampleBufferDelegate(frames, queue: DispatchQueue(label: "frames"))
session.addOutput(output)
session.startRunning()
guard frames.taken.wait(timeout: .now() + 30) == .success else { fatalError("no frame within 30 s") }
// Read to the end: /proc files say they are empty, and a read sized by that stops at a page.
let maps = (try? FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/maps")).readToEnd()).map { String(decoding: $0, as: UTF8.self) } ?? ""
let mapped = maps.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }.filter { $0.contains(".so") }
print("mapped once a frame is captured: \(Set(mapped).count) shared libraries")
session.stopRunning()
SOURCE
cd "$work/app"
for configuration in debug release; do
  rm -rf .build
  swift package resolve >/dev/null
  started=$SECONDS
  swift build -c "$configuration" >/dev/null
  built=$((SECONDS - started))
  binary="$(swift build -c "$configuration" --show-bin-path)/app"
  echo "dependent-cost.sh: $configuration: built from nothing in $built s; binary $(($(stat -c %s "$binary") / 1024 / 1024)) MB; linked against $(ldd "$binary" | wc -l) shared libraries"
  LINUXAVFOUNDATION_DEVICES=virtual "$binary" | sed "s/^/dependent-cost.sh: $configuration: /"
done
