// For every movie in a folder, writes a thumbnail and a 640x480 copy, with a progress bar.
//
//     ThumbnailService <folder> [output folder]
import AVFoundation
import ImageIO
import UniformTypeIdentifiers

/// A bar of 30 marks for a fraction between 0 and 1.
func bar(_ fraction: Float) -> String {
    let marks = Int((max(0, min(1, fraction)) * 30).rounded())
    return "[" + String(repeating: "#", count: marks) + String(repeating: " ", count: 30 - marks) + "] \(Int(fraction * 100))%"
}

/// Writes `image` as a JPEG file.
func writeJPEG(_ image: CGImage, to url: URL) -> Bool {
    guard let destination = CGImageDestinationCreateWithURL(url as CFURL, UTType.jpeg.identifier as CFString, 1, nil) else { return false }
    CGImageDestinationAddImage(destination, image, nil)
    return CGImageDestinationFinalize(destination)
}

let arguments = CommandLine.arguments.dropFirst()
guard let folderPath = arguments.first else {
    print("usage: ThumbnailService <folder> [output folder]")
    exit(2)
}
let folder = URL(fileURLWithPath: folderPath)
let outputFolder = URL(fileURLWithPath: arguments.dropFirst().first ?? folderPath)
try FileManager.default.createDirectory(at: outputFolder, withIntermediateDirectories: true)
let movies = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
    .filter { ["mov", "mp4", "m4v"].contains($0.pathExtension.lowercased()) && !$0.lastPathComponent.contains("-640x480") }
    .sorted { $0.lastPathComponent < $1.lastPathComponent }
print("\(movies.count) movies in \(folder.path)")

var failures = 0
for movie in movies {
    let name = movie.deletingPathExtension().lastPathComponent
    let asset = AVURLAsset(url: movie)
    do {
        let duration = try await asset.load(.duration)
        print("\(movie.lastPathComponent): \(String(format: "%.1f", duration.seconds)) s")

        let generator = AVAssetImageGenerator(asset: asset)
        generator.appliesPreferredTrackTransform = true
        generator.maximumSize = CGSize(width: 320, height: 320)
        let middle = CMTimeMultiplyByFloat64(duration, multiplier: 0.5)
        let (image, actualTime) = try await generator.image(at: middle)
        let thumbnail = outputFolder.appendingPathComponent("\(name).jpg")
        guard writeJPEG(image, to: thumbnail) else { throw CocoaError(.fileWriteUnknown) }
        print("  thumbnail \(thumbnail.lastPathComponent): \(image.width)x\(image.height) at \(String(format: "%.2f", actualTime.seconds)) s")

        guard let export = AVAssetExportSession(asset: asset, presetName: AVAssetExportPreset640x480) else {
            throw CocoaError(.featureUnsupported)
        }
        let copy = outputFolder.appendingPathComponent("\(name)-640x480.mp4")
        try? FileManager.default.removeItem(at: copy)
        let progress = Task {
            while !Task.isCancelled {
                print("\r  \(bar(export.progress))", terminator: "")
                fflush(nil)
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        try await export.export(to: copy, as: .mp4)
        progress.cancel()
        print("\r  \(bar(1))")
        let size = try await AVURLAsset(url: copy).load(.tracks).first { $0.mediaType == .video }?.load(.naturalSize)
        print("  copy \(copy.lastPathComponent): \(Int(size?.width ?? 0))x\(Int(size?.height ?? 0))")
    } catch {
        failures += 1
        print("  failed: \(error.localizedDescription)")
    }
}
exit(failures == 0 && !movies.isEmpty ? 0 : 1)
