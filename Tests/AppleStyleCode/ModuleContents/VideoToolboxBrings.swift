import VideoToolbox

// What a file importing only Video Toolbox uses, as Apple's module brings it: Core Media's sample
// buffers and times, and Core Video's pixel buffers.
enum VideoToolboxBrings {
    static func frame(of sampleBuffer: CMSampleBuffer) -> (CVPixelBuffer?, CMTime, CFString) {
        (CMSampleBufferGetImageBuffer(sampleBuffer), CMSampleBufferGetPresentationTimeStamp(sampleBuffer), kVTCompressionPropertyKey_RealTime)
    }
}
