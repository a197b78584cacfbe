#!/usr/bin/env bash
# Depends on the package the way an app does, by version: clones its committed state into a
# temporary folder, tags the clone with CHANGELOG.md's newest version, and makes a throwaway app
# that depends on it as the README says, `.package(url: "file://...", .upToNextMinor(from:
# VERSION))`, and imports AVFoundation, AVFAudio, Combine, CoreImage,
# ImageIO and Photos (Combine brings OpenCombine, a package of its own, into the app's graph),
# without the package's default traits (`traits: []`: no dlib, no WebRTC). SwiftPM refuses a versioned dependency any of whose product targets has
# unsafe build flags; this finds that when it resolves the app's package graph. A second target,
# in the Swift 5 language mode, holds a compositor in the older SDKs' spelling ([String: Any]
# attribute dictionaries), as most published compositors are written: it must build, as it does
# against Apple's SDK (with the same warning).
#
#   scripts/dependent-app.sh           resolve the graph (seconds): what CI runs
#   scripts/dependent-app.sh --build   build the app and the examples (Examples/) against the tagged
#                                      clone, run the app (devices listed, one frame captured) and
#                                      the examples (scripts/examples.sh --built): CI
set -euo pipefail
project=$(cd "$(dirname "$0")/.." && pwd)
# No flag in Package.swift that SwiftPM refuses to dependents, wherever the package is fetched from
# (the scripts give the project's own on the command line: scripts/build-flags.sh).
if grep -n "unsafeFlags" "$project/Package.swift"; then
    echo "dependent-app.sh: Package.swift uses unsafeFlags, which an app depending on it by version cannot resolve" >&2
    exit 1
fi
# The Debian packages the package builds on, as an app's developer installs them.
bash "$project/scripts/install-deps.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone -q "$project" "$work/LinuxAVFoundation"
version=$(sed -n 's/^## \([0-9][0-9.]*\).*/\1/p' "$project/CHANGELOG.md" | head -1)
# The committed state under the release's tag (moved onto it if the release was tagged earlier).
git -C "$work/LinuxAVFoundation" tag -f "$version" >/dev/null
# The app's package is the examples' (Examples/), depending by version instead of by path, with
# two targets of its own: the examples are built once, in the app's build, and run by CI from it.
mkdir -p "$work/app/Sources/app" "$work/app/Sources/OlderSpelling"
cp -R "$project/Examples/Sources/." "$work/app/Sources/"
# Without the package's default traits (faces, voice processing), as an app that needs neither
# depends on it: the build without dlib's and WebRTC's C++ is proved here, the default one by the tests.
sed -e 's|\.package(name: "LinuxAVFoundation", path: "\.\.")|.package(url: "file://'"$work"'/LinuxAVFoundation", .upToNextMinor(from: "'"$version"'"), traits: [])|' \
    -e '1s|swift-tools-version:6\.0|swift-tools-version:6.1|' \
    "$project/Examples/Package.swift" >"$work/app/Package.swift"
grep -q "upToNextMinor" "$work/app/Package.swift" \
    || { echo "dependent-app.sh: Examples/Package.swift no longer names its dependency as this script expects" >&2; exit 1; }
cat >>"$work/app/Package.swift" <<'MANIFEST'

// The app: a compositor in the older SDKs' spelling (Swift 5 mode), and a program that imports
// the modules an app does.
package.targets += [
    .target(
        name: "OlderSpelling", dependencies: [.product(name: "AVFoundation", package: "LinuxAVFoundation")],
        swiftSettings: [.swiftLanguageMode(.v5)]),
    .executableTarget(
        name: "app",
        dependencies: [
            "OlderSpelling",
            .product(name: "AVFoundation", package: "LinuxAVFoundation"), .product(name: "AVFAudio", package: "LinuxAVFoundation"),
            .product(name: "CoreImage", package: "LinuxAVFoundation"), .product(name: "ImageIO", package: "LinuxAVFoundation"),
            .product(name: "Photos", package: "LinuxAVFoundation"), .product(name: "Combine", package: "LinuxAVFoundation"),
        ]),
]
MANIFEST
cat > "$work/app/Sources/OlderSpelling/OlderSpellingCompositor.swift" <<'SOURCE'
import AVFoundation

/// A compositor declared as the older SDKs spelt it, in the Swift 5 language mode.
public final class OlderSpellingCompositor: NSObject, AVVideoCompositing {
    public var sourcePixelBufferAttributes: [String: Any]? { [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA] }
    public var requiredPixelBufferAttributesForRenderContext: [String: Any] { [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_32BGRA] }
    public func renderContextChanged(_ newRenderContext: AVVideoCompositionRenderContext) {}
    public func startRequest(_ request: AVAsynchronousVideoCompositionRequest) { request.finishCancelledRequest() }
}
SOURCE
cat > "$work/app/Sources/app/main.swift" <<'SOURCE'
import AVFAudio
import AVFoundation
import Combine
import CoreImage
import ImageIO
import OlderSpelling
import Photos

/// Takes the first frame the camera delivers.
final class FirstFrame: NSObject, AVCaptureVideoDataOutputSampleBufferDelegate, @unchecked Sendable {
    let taken = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private(set) var size: (Int, Int)?

    func captureOutput(_ output: AVCaptureOutput, didOutput sampleBuffer: CMSampleBuffer, from connection: AVCaptureConnection) {
        guard let pixels = CMSampleBufferGetImageBuffer(sampleBuffer) else { return }
        let first = lock.withLock { () -> Bool in
            defer { size = size ?? (CVPixelBufferGetWidth(pixels), CVPixelBufferGetHeight(pixels)) }
            return size == nil
        }
        if first { taken.signal() }
    }
}

for device in AVCaptureDevice.devices(for: .video) + AVCaptureDevice.devices(for: .audio) {
    print("device: \(device.localizedName) [\(device.uniqueID)]")
}
let session = AVCaptureSession()
guard let camera = AVCaptureDevice.default(for: .video), let input = try? AVCaptureDeviceInput(device: camera) else { fatalError("no camera") }
session.addInput(input)
let output = AVCaptureVideoDataOutput()
let frames = FirstFrame()
output.setSampleBufferDelegate(frames, queue: DispatchQueue(label: "frames"))
session.addOutput(output)
var running: [Bool] = []
let watching = session.publisher(for: \.isRunning).sink { running.append($0) }
session.startRunning()
guard frames.taken.wait(timeout: .now() + 30) == .success, let size = frames.size else { fatalError("no frame within 30 s") }
session.stopRunning()
watching.cancel()
guard running == [false, true, false] else { fatalError("publisher(for: \\.isRunning) gave \(running)") }
// Built without the FaceDetection trait: codes, but no faces, are offered.
let metadata = AVCaptureMetadataOutput()
session.addOutput(metadata)
guard metadata.availableMetadataObjectTypes.contains(.qr), !metadata.availableMetadataObjectTypes.contains(.face) else {
    fatalError("without the FaceDetection trait the metadata output offers \(metadata.availableMetadataObjectTypes)")
}
print("without the default traits: codes offered, faces not")
// Built without the VoiceProcessing trait: turning it on is refused, saying why.
let engine = AVAudioEngine()
do {
    try engine.inputNode.setVoiceProcessingEnabled(true)
    fatalError("voice processing turned on without the VoiceProcessing trait")
} catch {
    let reason = (error as NSError).localizedDescription
    guard reason.contains("VoiceProcessing trait") else { fatalError("voice processing refused for another reason: \(reason)") }
    print("without the default traits: voice processing refused (\(reason))")
}
print("running, as published: \(running)")
let image = CIImage(color: CIColor(red: 1, green: 0, blue: 0)).cropped(to: CGRect(x: 0, y: 0, width: 8, height: 8))
let compositor: any AVVideoCompositing = OlderSpellingCompositor()
print("older-spelling compositor: source attributes \(compositor.sourcePixelBufferAttributes?.count ?? 0)")
print("frame: \(size.0)x\(size.1); standard format: \(AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2)!); image: \(image.extent); photo library status: \(PHPhotoLibrary.authorizationStatus(for: .readWrite).rawValue)")
SOURCE
cd "$work/app"
if [ "${1:-}" = --build ]; then
    started=$SECONDS
    swift build
    echo "dependent-app.sh: the app and the examples built in $((SECONDS - started)) s (debug, from nothing)"
    LINUXAVFOUNDATION_DEVICES=virtual "$(swift build --show-bin-path)/app"
    # The examples, from this build, run and checked as scripts/examples.sh does.
    bash "$project/scripts/examples.sh" --built "$(swift build --show-bin-path)"
else
    swift package show-dependencies --format flatlist >/dev/null
    echo "dependent-app.sh: an app depending on LinuxAVFoundation .upToNextMinor(from: \"$version\") resolves (no unsafe build flags)"
fi
