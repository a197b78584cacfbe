import AVFoundation

// What a file importing only AVFoundation uses: Foundation, Core Graphics, Core Media, Core Video,
// Image I/O, Core Image, AVFAudio, and Uniform Type Identifiers' UTType.
enum AVFoundationBrings {
    static func describe(_ fileType: AVFileType, _ buffer: CMSampleBuffer) -> (UTType?, CGSize, AVAudioFormat?, CIImage?) {
        let image = CMSampleBufferGetImageBuffer(buffer).map { CIImage(cvPixelBuffer: $0) }
        let type = UTType(fileType.rawValue)
        return (type, image?.extent.size ?? .zero, AVAudioFormat(standardFormatWithSampleRate: 48_000, channels: 2), image)
    }
}
