import ArgumentParser
import AVFoundation
import Foundation
import ImageIO

/// `avcapture thumbnail`: the picture a movie shows at a time, or a contact sheet of several, as a JPEG, PNG or HEIC file.
struct Thumbnail: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Write the picture a movie shows at a time (or a contact sheet of several) to a JPEG, PNG or HEIC file.",
        discussion: """
            The picture is the exact frame shown at the time (with --keyframe, the keyframe at or before it), turned \
            upright as the movie is played. Without --at, \
            the middle of the movie. --size fits the picture (each picture of a sheet) into a box, keeping its shape. \
            --sheet lays the pictures at several --at times, or at --count times spread over the movie, in a grid. \
            The output's extension gives its type: .jpg, .png or .heic. An existing file is never overwritten. \
            --gif writes a clip instead, as an animated .gif (or .png): from --at (the start by default) for \
            --seconds at --fps pictures a second, fitted into --size (480x480 by default), looping for ever.
            """)

    @Argument(help: "The movie to read.") var input: String
    @Argument(help: "The picture to write: .jpg, .png or .heic; it must not exist.") var output: String
    @Option(help: "A time in seconds, such as 12.5; may be repeated with --sheet.") var at: [String] = []
    @Option(help: "The box each picture fits in, as WIDTHxHEIGHT, such as 320x240.") var size: String?
    @Flag(help: "Lay the pictures out in a grid, a contact sheet.") var sheet = false
    @Option(help: "With --sheet and no --at, how many pictures, spread evenly over the movie (2 to 100).") var count: Int?
    @Flag(help: "Take the keyframe at or before each time instead of the exact frame: faster, as ffmpegthumbnailer does.") var keyframe = false
    @Flag(help: "Write a clip as an animated .gif or .png: from --at for --seconds at --fps.") var gif = false
    @Option(help: "With --gif, how long the clip is, in seconds (up to 60).") var seconds: Double = 3
    @Option(help: "With --gif, pictures a second (1 to 50).") var fps: Double = 10

    static let types: [String: String] = ["jpg": "public.jpeg", "jpeg": "public.jpeg", "png": "public.png", "heic": "public.heic"]

    /// The times asked for, in seconds.
    func times() throws -> [Double] {
        try at.map { text in
            guard let seconds = DurationOption.value(text), seconds.isFinite, seconds >= 0, seconds < 1e7 else {
                throw ValidationError("--at is a time in seconds from 0, such as 12.5, not \(text).")
            }
            return seconds
        }
    }

    /// The box pictures fit in; nil for their own size.
    func box() throws -> CGSize? {
        guard let size else { return nil }
        let parts = size.lowercased().split(separator: "x", maxSplits: 1).map { Int($0) }
        guard parts.count == 2, let width = parts[0], let height = parts[1], (16...8192).contains(width), (16...8192).contains(height) else {
            throw ValidationError("--size is WIDTHxHEIGHT from 16x16 to 8192x8192, such as 320x240, not \(size).")
        }
        return CGSize(width: width, height: height)
    }

    func validate() throws {
        let times = try times()
        _ = try box()
        if let count, !(2...100).contains(count) { throw ValidationError("--count is from 2 to 100, not \(count).") }
        if count != nil, !sheet { throw ValidationError("--count makes a contact sheet: add --sheet.") }
        if count != nil, !times.isEmpty { throw ValidationError("Give --at times or a --count, not both.") }
        if times.count > 1, !sheet { throw ValidationError("Several --at times make a contact sheet: add --sheet, or write one time per file.") }
        if sheet, times.count > 100 { throw ValidationError("A contact sheet has at most 100 pictures.") }
        let type = URL(fileURLWithPath: output).pathExtension.lowercased()
        if gif {
            if !["gif", "png"].contains(type) { throw ValidationError("--gif writes a .gif or .png animation, not \(output).") }
            if sheet || count != nil || keyframe || times.count > 1 { throw ValidationError("--gif takes one --at, and no --sheet, --count or --keyframe.") }
            guard seconds > 0, seconds <= 60 else { throw ValidationError("--seconds is from 0 to 60, not \(seconds).") }
            guard fps >= 1, fps <= 50 else { throw ValidationError("--fps is from 1 to 50, not \(fps).") }
            return
        }
        if Self.types[type] == nil { throw ValidationError("\(output) is not a .jpg, .png or .heic file.") }
    }

    func run() throws {
        let source = URL(fileURLWithPath: input)
        try InputFile.check(input)
        guard !FileSystemEntry.exists(atPath: output) else { throw CommandFailure("\(output) exists; it is never overwritten.") }
        let asset = AVURLAsset(url: source)
        let semaphore = DispatchSemaphore(value: 0)
        asset.loadValuesAsynchronously(forKeys: ["tracks"]) { semaphore.signal() }
        semaphore.wait()
        var loadError: NSError?
        guard asset.statusOfValue(forKey: "tracks", error: &loadError) == .loaded else {
            throw CommandFailure(loadError?.localizedDescription ?? "\(input) cannot be read.")
        }
        guard !asset.tracks(withMediaType: .video).isEmpty else { throw CommandFailure("\(input) has no pictures.") }
        let duration = asset.duration.isNumeric ? asset.duration.seconds : 0
        if gif { return try writeClip(asset, duration: duration) }
        var seconds = try times()
        if seconds.isEmpty {
            let pictures = sheet ? count ?? 9 : 1
            seconds = (0..<pictures).map { duration * (Double($0) + 0.5) / Double(pictures) }
        }
        let generator = AVAssetImageGenerator(asset: asset)
        generator.appliesPreferredTrackTransform = true
        generator.requestedTimeToleranceBefore = keyframe ? .positiveInfinity : .zero
        generator.requestedTimeToleranceAfter = .zero
        if let box = try box() {
            generator.maximumSize = box
        } else if sheet {
            // Each picture of a sheet is scaled as it is decoded, so that a sheet never holds full-size
            // frames: the sheet is at most about 3840 pixels wide.
            let columns = Int(Double(seconds.count).squareRoot().rounded(.up))
            let side = CGFloat(max(16, 3840 / max(1, columns)))
            generator.maximumSize = CGSize(width: side, height: side)
        }
        var images: [CGImage] = []
        var shown = CMTime.invalid
        for time in seconds {
            do {
                images.append(try generator.copyCGImage(at: CMTime(seconds: time, preferredTimescale: 600), actualTime: &shown))
            } catch {
                throw CommandFailure("No picture at \(time) s: \(error.localizedDescription)")
            }
        }
        guard let picture = sheet ? Self.sheet(of: images) : images.first else { throw CommandFailure("The contact sheet could not be drawn.") }
        let type = Self.types[URL(fileURLWithPath: output).pathExtension.lowercased()]!
        let data = NSMutableData()
        guard let destination = CGImageDestinationCreateWithData(data as CFMutableData, type as CFString, 1, nil) else {
            throw CommandFailure("This system cannot write \(type) pictures.")
        }
        CGImageDestinationAddImage(destination, picture, [kCGImageDestinationLossyCompressionQuality: 0.9] as CFDictionary)
        guard CGImageDestinationFinalize(destination) else { throw CommandFailure("The picture could not be encoded as \(type).") }
        try NewFile.write(Data(copying: data), to: output)
        print("\(output): \(picture.width)x\(picture.height)\(sheet ? ", \(images.count) pictures" : String(format: " at %.3f s", shown.seconds))")
    }

    /// Writes the clip `--gif` asks for.
    private func writeClip(_ asset: AVAsset, duration: Double) throws {
        let start = try times().first ?? 0
        guard start < duration else { throw CommandFailure(String(format: "--at %g is past the movie's end at %.3f s.", start, duration)) }
        let track = asset.tracks(withMediaType: .video)[0]
        let pictures: [CGImage]
        do {
            pictures = try ThumbnailClip.pictures(
                of: asset, track: track, start: start, seconds: seconds, rate: fps, box: try box() ?? CGSize(width: 480, height: 480))
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure("The clip could not be read: \(error.localizedDescription)")
        }
        guard let first = pictures.first else { throw CommandFailure("No picture is shown from \(start) s.") }
        let type = URL(fileURLWithPath: output).pathExtension.lowercased() == "png" ? "public.png" : "com.compuserve.gif"
        try NewFile.write(try ThumbnailClip.animation(pictures, type: type, delay: 1 / fps), to: output)
        print(String(format: "%@: %dx%d, %d pictures from %.3f s at %g a second", output, first.width, first.height, pictures.count, start, fps))
    }

    /// The pictures in a grid, as many columns as rows or one more, on black.
    static func sheet(of images: [CGImage]) -> CGImage? {
        guard let first = images.first else { return nil }
        let columns = Int(Double(images.count).squareRoot().rounded(.up)), rows = (images.count + columns - 1) / columns
        let cellWidth = images.map(\.width).max() ?? first.width, cellHeight = images.map(\.height).max() ?? first.height
        let gap = 4
        let width = columns * cellWidth + (columns + 1) * gap, height = rows * cellHeight + (rows + 1) * gap
        guard
            let context = CGContext(
                data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceRGB(),
                bitmapInfo: CGBitmapInfo.byteOrder32Little.rawValue | CGImageAlphaInfo.noneSkipFirst.rawValue)
        else { return nil }
        context.setFillColor(gray: 0, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: width, height: height))
        for (index, image) in images.enumerated() {
            let (column, row) = (index % columns, index / columns)
            // Quartz's y is upwards: the first row at the top.
            let x = gap + column * (cellWidth + gap), y = height - (row + 1) * (cellHeight + gap)
            context.draw(image, in: CGRect(x: x, y: y, width: image.width, height: image.height))
        }
        return context.makeImage()
    }
}
