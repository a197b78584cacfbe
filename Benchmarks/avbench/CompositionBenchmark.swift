import AVFoundation
import CBenchmarkSupport
import Foundation

/// A two-clip crossfade export: two 31 s 1080p30 clips overlapping by 2 s (60 s), the first fading out
/// over the second (video composition instructions, encoded by the 1920x1080 preset), next to
/// `ffmpeg -filter_complex xfade` with the same encoder settings on the same clips in the same
/// run; then 6 s of picture in picture, straight (`overlay`) and tilted by 10 degrees (`rotate`
/// and `overlay`). Whole exports, wall and CPU time.
enum CompositionBenchmark {
    static let width = 1920, height = 1080, clipSeconds = 31, overlap = 2
    /// How long the picture in picture exports are.
    static let insetSeconds = 6

    static func run() throws {
        print("")
        print(
            "Composition exports: two \(clipSeconds) s \(width)x\(height) 30 fps clips, crossfaded over \(overlap) s (\(2 * clipSeconds - overlap) s), and \(insetSeconds) s of one inset in the other:"
        )
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") else {
            return print("  ffmpeg not available: install ffmpeg for this comparison")
        }
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("avbench-composition-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var clips: [URL] = []
        for (index, pattern) in ["testsrc2", "smptehdbars"].enumerated() {
            let url = folder.appendingPathComponent("clip\(index).mp4")
            let made = shell([
                "/usr/bin/ffmpeg", "-v", "error", "-f", "lavfi", "-i", "\(pattern)=size=\(width)x\(height):rate=30:duration=\(clipSeconds)",
                "-c:v", "libx264", "-preset", "veryfast", "-b:v", "8M", "-g", "30", "-bf", "2", "-pix_fmt", "yuv420p", "-y", url.path,
            ])
            guard made.status == 0 else { return print("  could not make the clips") }
            clips.append(url)
        }
        let total = 2 * clipSeconds - overlap, frames = total * 30

        let ours = folder.appendingPathComponent("ours.mp4")
        let (oursSeconds, oursCPU) = try EncodeBenchmark.measure { try crossfade(clips, to: ours) }
        let bitRate = Int(Double(width * height) * 30 * 0.38)
        let theirs = folder.appendingPathComponent("ffmpeg.mp4")
        let (ffmpegSeconds, ffmpegCPU) = try EncodeBenchmark.measure {
            guard
                shell([
                    "/usr/bin/ffmpeg", "-v", "error", "-i", clips[0].path, "-i", clips[1].path, "-filter_complex",
                    "[0:v][1:v]xfade=transition=fade:duration=\(overlap):offset=\(clipSeconds - overlap),format=yuv420p[v]", "-map", "[v]",
                    "-c:v", "libx264", "-preset", "veryfast", "-tune", "zerolatency", "-b:v", "\(bitRate)", "-maxrate", "\(bitRate * 3 / 2)",
                    "-bufsize", "\(bitRate)", "-g", "30", "-bf", "0", "-movflags", "+faststart", "-y", theirs.path,
                ]).status == 0
            else { throw CocoaError(.fileWriteUnknown) }
        }
        ExportBenchmark.report(
            "crossfade", ours: ("AVAssetExportSession + instructions", oursSeconds, oursCPU), theirs: ("ffmpeg xfade", ffmpegSeconds, ffmpegCPU),
            frames: frames)

        try composerAlone(clips)

        // Picture in picture: the second clip at a quarter of the size in the bottom right corner, over the first, for 6 s.
        let inset = folder.appendingPathComponent("inset.mp4")
        let (pipSeconds, pipCPU) = try EncodeBenchmark.measure { try pictureInPicture(clips, to: inset) }
        let overlaid = folder.appendingPathComponent("overlay.mp4")
        let (overlaySeconds, overlayCPU) = try EncodeBenchmark.measure {
            guard
                shell([
                    "/usr/bin/ffmpeg", "-v", "error", "-i", clips[0].path, "-i", clips[1].path, "-filter_complex",
                    "[1:v]scale=\(width / 4):\(height / 4)[small];[0:v][small]overlay=\(width * 3 / 4 - 32):\(height * 3 / 4 - 32),format=yuv420p[v]",
                    "-map", "[v]", "-t", "\(insetSeconds)", "-c:v", "libx264", "-preset", "veryfast", "-tune", "zerolatency", "-b:v", "\(bitRate)", "-maxrate",
                    "\(bitRate * 3 / 2)", "-bufsize", "\(bitRate)", "-g", "30", "-bf", "0", "-movflags", "+faststart", "-y", overlaid.path,
                ]).status == 0
            else { throw CocoaError(.fileWriteUnknown) }
        }
        ExportBenchmark.report(
            "picture in picture", ours: ("AVAssetExportSession + instructions", pipSeconds, pipCPU), theirs: ("ffmpeg overlay", overlaySeconds, overlayCPU),
            frames: insetSeconds * 30)

        // The same inset tilted by 10 degrees about its centre: a turn no whole-pixel path takes.
        let tilted = folder.appendingPathComponent("tilted.mp4")
        let (tiltedSeconds, tiltedCPU) = try EncodeBenchmark.measure { try pictureInPicture(clips, to: tilted, degrees: tilt) }
        let rotated = folder.appendingPathComponent("rotated.mp4")
        let angle = "\(tilt)*PI/180"
        let (rotatedSeconds, rotatedCPU) = try EncodeBenchmark.measure {
            guard
                shell([
                    "/usr/bin/ffmpeg", "-v", "error", "-i", clips[0].path, "-i", clips[1].path, "-filter_complex",
                    "[1:v]scale=\(width / 4):\(height / 4),format=yuva420p,rotate=\(angle):ow=rotw(\(angle)):oh=roth(\(angle)):c=none[small];"
                        + "[0:v][small]overlay=\(width * 3 / 4 - 32)-(overlay_w-\(width / 4))/2:\(height * 3 / 4 - 32)-(overlay_h-\(height / 4))/2,format=yuv420p[v]",
                    "-map", "[v]", "-t", "\(insetSeconds)", "-c:v", "libx264", "-preset", "veryfast", "-tune", "zerolatency", "-b:v", "\(bitRate)", "-maxrate",
                    "\(bitRate * 3 / 2)", "-bufsize", "\(bitRate)", "-g", "30", "-bf", "0", "-movflags", "+faststart", "-y", rotated.path,
                ]).status == 0
            else { throw CocoaError(.fileWriteUnknown) }
        }
        ExportBenchmark.report(
            "tilted picture in picture", ours: ("AVAssetExportSession + instructions", tiltedSeconds, tiltedCPU),
            theirs: ("ffmpeg rotate + overlay", rotatedSeconds, rotatedCPU), frames: insetSeconds * 30)
        try tiltedComposerAlone(clips)
    }

    /// The inset's tilt in degrees.
    static let tilt = 10.0

    /// The inset's layer: a quarter of the size in the bottom right corner, turned by `degrees` about its centre.
    static func insetTransform(degrees: Double) -> CGAffineTransform {
        let (w, h) = (CGFloat(width / 4), CGFloat(height / 4))
        return CGAffineTransform(scaleX: 0.25, y: 0.25).concatenating(CGAffineTransform(translationX: -w / 2, y: -h / 2))
            .concatenating(CGAffineTransform(rotationAngle: CGFloat(degrees * .pi / 180)))
            .concatenating(CGAffineTransform(translationX: CGFloat(width * 3 / 4 - 32) + w / 2, y: CGFloat(height * 3 / 4 - 32) + h / 2))
    }

    /// Reads every frame of `output` over `asset`: how many, how fast after the first second, and
    /// heap allocations a frame in that steady state, all of them and those the media libraries' code made (FFmpeg, x264, libyuv).
    static func read(_ output: AVAssetReaderOutput, of asset: AVAsset, range: CMTimeRange? = nil) throws -> (
        frames: Int, seconds: Double, allocations: Double, codecAllocations: Double
    ) {
        let reader = try AVAssetReader(asset: asset)
        if let range { reader.timeRange = range }
        reader.add(output)
        guard reader.startReading() else { throw reader.error ?? CocoaError(.fileReadUnknown) }
        // The first second settles pools and scratch memory; the rest is steady state.
        var frames = 0, start = now(), allocations0 = avbench_allocation_count(), codec0 = avbench_codec_allocation_count()
        while let sample = output.copyNextSampleBuffer() {
            frames += 1
            if frames == 30 { (start, allocations0, codec0) = (now(), avbench_allocation_count(), avbench_codec_allocation_count()) }
            _ = sample
        }
        let counted = Double(max(1, frames - 30))
        return (
            frames, now() - start, Double(avbench_allocation_count() - allocations0) / counted, Double(avbench_codec_allocation_count() - codec0) / counted
        )
    }

    /// The tilted inset's composer without the encoder (two-plane 4:2:0, as the export reads it).
    static func tiltedComposerAlone(_ clips: [URL]) throws {
        let (composition, tracks, assets, range) = try stackedForInset(clips)
        defer { withExtendedLifetime(assets) {} }
        let video = insetComposition(tracks, range: range, degrees: tilt)
        let settings: [String: Any] = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange]
        let output = AVAssetReaderVideoCompositionOutput(videoTracks: composition.tracks(withMediaType: .video), videoSettings: settings)
        output.videoComposition = video
        let composed = try read(output, of: composition)
        print(
            String(
                format:
                    "  composer alone (tilted inset frames, no encoder): %.1f frames/s, %.1f heap allocations a frame (the media libraries' %.1f, the rest %.1f)",
                Double(composed.frames - 30) / composed.seconds, composed.allocations, composed.codecAllocations,
                composed.allocations - composed.codecAllocations))
        // The same with an animation tool's watermark: a half-opaque card over the video layer.
        let root = CALayer(), videoLayer = CALayer(), card = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: width, height: height)
        videoLayer.frame = root.frame
        card.frame = CGRect(x: 64, y: 64, width: 400, height: 120)
        card.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        card.opacity = 0.5
        root.addSublayer(videoLayer)
        root.addSublayer(card)
        let marked = insetComposition(tracks, range: range, degrees: tilt)
        marked.animationTool = AVVideoCompositionCoreAnimationTool(postProcessingAsVideoLayer: videoLayer, in: root)
        let markedOutput = AVAssetReaderVideoCompositionOutput(videoTracks: composition.tracks(withMediaType: .video), videoSettings: settings)
        markedOutput.videoComposition = marked
        let watermarked = try read(markedOutput, of: composition)
        print(
            String(
                format:
                    "  composer alone (tilted inset and a watermark layer, no encoder): %.1f frames/s, %.1f heap allocations a frame (the media libraries' %.1f, the rest %.1f)",
                Double(watermarked.frames - 30) / watermarked.seconds, watermarked.allocations, watermarked.codecAllocations,
                watermarked.allocations - watermarked.codecAllocations))
    }

    /// The composer without the encoder: the crossfade read as the export reads it (two-plane
    /// 4:2:0), its speed and heap allocations per frame, next to reading one clip's frames alone
    /// (the decoding every composed frame also pays).
    static func composerAlone(_ clips: [URL]) throws {
        let settings: [String: Any] = [kCVPixelBufferPixelFormatTypeKey as String: kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange]
        let plain = AVURLAsset(url: clips[0])
        let decoded = try read(AVAssetReaderTrackOutput(track: plain.tracks(withMediaType: .video)[0], outputSettings: settings), of: plain)
        let (composition, tracks, assets) = try overlapping(clips)
        defer { withExtendedLifetime(assets) {} }
        let seconds = { (value: Int) in CMTime(value: CMTimeValue(value), timescale: 1) }
        // Both clips shown through the whole overlap, the first fading out: every frame mixes two.
        let fading = AVMutableVideoCompositionLayerInstruction(assetTrack: tracks[0])
        fading.setOpacityRamp(fromStartOpacity: 1, toEndOpacity: 0, timeRange: CMTimeRange(start: seconds(clipSeconds - overlap), end: seconds(clipSeconds)))
        let instruction = AVMutableVideoCompositionInstruction()
        instruction.timeRange = CMTimeRange(start: seconds(clipSeconds - overlap), end: seconds(clipSeconds))
        instruction.layerInstructions = [fading, AVMutableVideoCompositionLayerInstruction(assetTrack: tracks[1])]
        let video = AVMutableVideoComposition()
        video.frameDuration = CMTime(value: 1, timescale: 30)
        video.renderSize = CGSize(width: width, height: height)
        video.instructions = [instruction]
        let oneTrack = try read(AVAssetReaderTrackOutput(track: composition.tracks(withMediaType: .video)[0], outputSettings: settings), of: composition)
        let output = AVAssetReaderVideoCompositionOutput(videoTracks: composition.tracks(withMediaType: .video), videoSettings: settings)
        output.videoComposition = video
        let composed = try read(output, of: composition, range: instruction.timeRange)
        print(
            String(
                format:
                    "  composer alone (crossfade frames, no encoder): %.1f frames/s, %.1f heap allocations a frame (the media libraries' %.1f, the rest %.1f); one clip decoded alone: %.1f frames/s, %.1f a frame (the libraries' %.1f); one composition track: %.1f a frame (the libraries' %.1f)",
                Double(composed.frames - 30) / composed.seconds, composed.allocations, composed.codecAllocations,
                composed.allocations - composed.codecAllocations, Double(decoded.frames - 30) / decoded.seconds, decoded.allocations,
                decoded.codecAllocations, oneTrack.allocations, oneTrack.codecAllocations))
    }

    /// Exports a composition with a video composition at the 1920x1080 preset, waiting for it.
    static func export(_ composition: AVComposition, _ video: AVVideoComposition, to destination: URL) throws {
        guard let session = AVAssetExportSession(asset: composition, presetName: AVAssetExportPreset1920x1080) else { throw CocoaError(.featureUnsupported) }
        session.videoComposition = video
        session.outputURL = destination
        session.outputFileType = .mp4
        let done = DispatchSemaphore(value: 0)
        session.exportAsynchronously { done.signal() }
        done.wait()
        guard session.status == .completed else { throw session.error ?? CocoaError(.fileWriteUnknown) }
    }

    /// Picture in picture as an editor builds it: two tracks over the same time, one instruction,
    /// the second track's layer scaled to a quarter and moved into the bottom right corner, turned
    /// by `degrees` about its centre.
    static func pictureInPicture(_ clips: [URL], to destination: URL, degrees: Double = 0) throws {
        let (composition, tracks, assets, range) = try stackedForInset(clips)
        defer { withExtendedLifetime(assets) {} }
        try export(composition, insetComposition(tracks, range: range, degrees: degrees), to: destination)
    }

    /// The clips' first `insetSeconds` as two tracks over the same time, with the clips' assets
    /// (which must live while the composition is read) and the time range.
    static func stackedForInset(_ clips: [URL]) throws -> (AVMutableComposition, [AVMutableCompositionTrack], [AVURLAsset], CMTimeRange) {
        let composition = AVMutableComposition()
        let range = CMTimeRange(start: .zero, duration: CMTime(value: CMTimeValue(insetSeconds), timescale: 1))
        let assets = clips.map { AVURLAsset(url: $0) }
        let tracks = try assets.map { asset -> AVMutableCompositionTrack in
            let track = composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid)!
            try track.insertTimeRange(range, of: asset.tracks(withMediaType: .video)[0], at: .zero)
            return track
        }
        return (composition, tracks, assets, range)
    }

    /// One instruction over `range`: the second track inset over the first, turned by `degrees`.
    static func insetComposition(_ tracks: [AVMutableCompositionTrack], range: CMTimeRange, degrees: Double) -> AVMutableVideoComposition {
        let small = AVMutableVideoCompositionLayerInstruction(assetTrack: tracks[1])
        small.setTransform(insetTransform(degrees: degrees), at: .zero)
        let instruction = AVMutableVideoCompositionInstruction()
        instruction.timeRange = range
        instruction.layerInstructions = [small, AVMutableVideoCompositionLayerInstruction(assetTrack: tracks[0])]
        let video = AVMutableVideoComposition()
        video.frameDuration = CMTime(value: 1, timescale: 30)
        video.renderSize = CGSize(width: width, height: height)
        video.instructions = [instruction]
        return video
    }

    /// A composition of the clips one after another, each overlapping the next by `overlap` seconds,
    /// with its two tracks and the clips' assets (which must live while it is read).
    static func overlapping(_ clips: [URL]) throws -> (AVMutableComposition, [AVMutableCompositionTrack], [AVURLAsset]) {
        let composition = AVMutableComposition()
        let seconds = { (value: Int) in CMTime(value: CMTimeValue(value), timescale: 1) }
        let assets = clips.map { AVURLAsset(url: $0) }
        let tracks = try assets.enumerated().map { index, asset -> AVMutableCompositionTrack in
            let track = composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid)!
            try track.insertTimeRange(
                CMTimeRange(start: .zero, duration: seconds(clipSeconds)), of: asset.tracks(withMediaType: .video)[0],
                at: seconds(index * (clipSeconds - overlap)))
            return track
        }
        return (composition, tracks, assets)
    }

    /// The crossfade as an editor builds it: two tracks, three instructions, the first layer's opacity ramped down.
    static func crossfade(_ clips: [URL], to destination: URL) throws {
        let (composition, tracks, assets) = try overlapping(clips)
        defer { withExtendedLifetime(assets) {} }
        let seconds = { (value: Int) in CMTime(value: CMTimeValue(value), timescale: 1) }
        let fadeStart = seconds(clipSeconds - overlap), fadeEnd = seconds(clipSeconds)
        func instruction(_ range: CMTimeRange, _ layers: [AVVideoCompositionLayerInstruction]) -> AVMutableVideoCompositionInstruction {
            let instruction = AVMutableVideoCompositionInstruction()
            instruction.timeRange = range
            instruction.layerInstructions = layers
            return instruction
        }
        let fading = AVMutableVideoCompositionLayerInstruction(assetTrack: tracks[0])
        fading.setOpacityRamp(fromStartOpacity: 1, toEndOpacity: 0, timeRange: CMTimeRange(start: fadeStart, end: fadeEnd))
        let video = AVMutableVideoComposition()
        video.frameDuration = CMTime(value: 1, timescale: 30)
        video.renderSize = CGSize(width: width, height: height)
        video.instructions = [
            instruction(CMTimeRange(start: .zero, end: fadeStart), [AVMutableVideoCompositionLayerInstruction(assetTrack: tracks[0])]),
            instruction(CMTimeRange(start: fadeStart, end: fadeEnd), [fading, AVMutableVideoCompositionLayerInstruction(assetTrack: tracks[1])]),
            instruction(
                CMTimeRange(start: fadeEnd, end: seconds(2 * clipSeconds - overlap)), [AVMutableVideoCompositionLayerInstruction(assetTrack: tracks[1])]),
        ]
        try export(composition, video, to: destination)
    }
}
