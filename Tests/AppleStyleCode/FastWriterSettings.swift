// Writer settings as screen recorders and multi-camera apps write them for Apple's platforms:
// Video Toolbox's keys in the compression properties, to favour the encoder's speed.
import AVFoundation
import VideoToolbox

/// The settings of a video input that must keep up in real time on a busy machine.
public func fastWriterSettings(width: Int, height: Int, bitRate: Int) -> [String: Any] {
    [
        AVVideoCodecKey: AVVideoCodecType.h264,
        AVVideoWidthKey: width,
        AVVideoHeightKey: height,
        AVVideoCompressionPropertiesKey: [
            AVVideoAverageBitRateKey: bitRate,
            kVTCompressionPropertyKey_RealTime as String: true,
            kVTCompressionPropertyKey_PrioritizeEncodingSpeedOverQuality as String: true,
            AVVideoExpectedSourceFrameRateKey: 30,
        ] as [String: Any],
    ]
}

/// Writes `frames` grey frames with `settings` to `url`; the writer's status when it is done.
public func writeGreyFrames(to url: URL, settings: [String: Any], frames: Int) throws -> AVAssetWriter.Status {
    let writer = try AVAssetWriter(outputURL: url, fileType: .mp4)
    let input = AVAssetWriterInput(mediaType: .video, outputSettings: settings)
    input.expectsMediaDataInRealTime = true
    let adaptor = AVAssetWriterInputPixelBufferAdaptor(assetWriterInput: input, sourcePixelBufferAttributes: nil)
    guard writer.canAdd(input) else { return .failed }
    writer.add(input)
    guard writer.startWriting() else { return writer.status }
    writer.startSession(atSourceTime: .zero)
    let width = settings[AVVideoWidthKey] as? Int ?? 320, height = settings[AVVideoHeightKey] as? Int ?? 240
    for index in 0..<frames {
        var buffer: CVPixelBuffer?
        CVPixelBufferCreate(kCFAllocatorDefault, width, height, kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange, nil, &buffer)
        guard let buffer else { continue }
        CVPixelBufferLockBaseAddress(buffer, [])
        for plane in 0..<CVPixelBufferGetPlaneCount(buffer) {
            guard let base = CVPixelBufferGetBaseAddressOfPlane(buffer, plane) else { continue }
            memset(base, 128, CVPixelBufferGetBytesPerRowOfPlane(buffer, plane) * CVPixelBufferGetHeightOfPlane(buffer, plane))
        }
        CVPixelBufferUnlockBaseAddress(buffer, [])
        while !input.isReadyForMoreMediaData { Thread.sleep(forTimeInterval: 0.002) }
        _ = adaptor.append(buffer, withPresentationTime: CMTime(value: CMTimeValue(index), timescale: 30))
    }
    input.markAsFinished()
    let done = DispatchSemaphore(value: 0)
    writer.finishWriting { done.signal() }
    done.wait()
    return writer.status
}
