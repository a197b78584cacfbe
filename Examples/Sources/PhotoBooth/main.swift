// Takes a few photos, saves each into the photo library (the Pictures folder on Linux), and
// writes a strip of their thumbnails beside.
//
//     PhotoBooth [count] [strip.jpg]
import AVFoundation
import ImageIO
import Photos
import UniformTypeIdentifiers

/// Hears each photo as it is finished and keeps its data and its picture.
final class Booth: NSObject, AVCapturePhotoCaptureDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var photos: [(data: Data, image: CGImage)] = []
    private var failures: [any Error] = []
    private var waiting: CheckedContinuation<Void, Never>?

    /// Takes a photo and returns once the output has finished with it.
    func take(with settings: AVCapturePhotoSettings, from output: AVCapturePhotoOutput) async {
        await withCheckedContinuation { continuation in
            lock.withLock { waiting = continuation }
            output.capturePhoto(with: settings, delegate: self)
        }
    }

    var results: [(data: Data, image: CGImage)] { lock.withLock { photos } }
    var errors: [any Error] { lock.withLock { failures } }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishProcessingPhoto photo: AVCapturePhoto, error: (any Error)?) {
        lock.withLock {
            if let error {
                failures.append(error)
            } else if let data = photo.fileDataRepresentation(), let image = photo.cgImageRepresentation() {
                photos.append((data, image))
            }
        }
    }

    func photoOutput(_ output: AVCapturePhotoOutput, didFinishCaptureFor resolvedSettings: AVCaptureResolvedPhotoSettings, error: (any Error)?) {
        let waiter = lock.withLock {
            if let error { failures.append(error) }
            defer { waiting = nil }
            return waiting
        }
        waiter?.resume()
    }
}

/// The pictures side by side, each scaled to `height` points high, on a dark strip.
func strip(of images: [CGImage], height: Int) -> CGImage? {
    let widths = images.map { Int((Double($0.width) * Double(height) / Double($0.height)).rounded()) }
    let gap = 8
    let width = widths.reduce(gap) { $0 + $1 + gap }
    guard
        let context = CGContext(
            data: nil, width: width, height: height + 2 * gap, bitsPerComponent: 8, bytesPerRow: 0,
            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)
    else { return nil }
    context.setFillColor(CGColor(red: 0.1, green: 0.1, blue: 0.1, alpha: 1))
    context.fill(CGRect(x: 0, y: 0, width: width, height: height + 2 * gap))
    var x = gap
    for (image, imageWidth) in zip(images, widths) {
        context.interpolationQuality = .high
        context.draw(image, in: CGRect(x: x, y: gap, width: imageWidth, height: height))
        x += imageWidth + gap
    }
    return context.makeImage()
}

/// Saves a photo's file into the photo library. (In an async function rather than at the top
/// level, where Swift would pick the completion-handler form of performChanges.)
func save(_ photo: Data) async throws {
    try await PHPhotoLibrary.shared().performChanges {
        PHAssetCreationRequest.forAsset().addResource(with: .photo, data: photo, options: nil)
    }
}

let arguments = CommandLine.arguments.dropFirst()
let count = arguments.first.flatMap(Int.init) ?? 4
let stripURL = URL(fileURLWithPath: arguments.dropFirst().first ?? "strip.jpg")

guard await PHPhotoLibrary.requestAuthorization(for: .addOnly) == .authorized else {
    print("The photo library cannot be written to.")
    exit(1)
}
guard let camera = AVCaptureDevice.default(for: .video) else {
    print("No camera.")
    exit(1)
}
let session = AVCaptureSession()
session.beginConfiguration()
session.sessionPreset = .photo
session.addInput(try AVCaptureDeviceInput(device: camera))
let output = AVCapturePhotoOutput()
guard session.canAddOutput(output) else {
    print("The session cannot take photos.")
    exit(1)
}
session.addOutput(output)
session.commitConfiguration()
session.startRunning()

let booth = Booth()
for shot in 1...count {
    print("Photo \(shot) of \(count)...")
    let settings = AVCapturePhotoSettings(format: [AVVideoCodecKey: AVVideoCodecType.jpeg])
    await booth.take(with: settings, from: output)
}
session.stopRunning()
if let error = booth.errors.first {
    print("A photo failed: \(error.localizedDescription)")
    exit(1)
}

for (data, _) in booth.results {
    try await save(data)
}
print("Saved \(booth.results.count) photos to the photo library")

guard let picture = strip(of: booth.results.map(\.image), height: 160),
    let destination = CGImageDestinationCreateWithURL(stripURL as CFURL, UTType.jpeg.identifier as CFString, 1, nil)
else {
    print("The strip cannot be made.")
    exit(1)
}
CGImageDestinationAddImage(destination, picture, [kCGImageDestinationLossyCompressionQuality: 0.85] as CFDictionary)
guard CGImageDestinationFinalize(destination) else {
    print("The strip cannot be written to \(stripURL.path).")
    exit(1)
}
print("Wrote \(stripURL.lastPathComponent): \(picture.width)x\(picture.height)")
