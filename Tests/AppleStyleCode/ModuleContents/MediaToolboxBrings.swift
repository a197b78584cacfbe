import MediaToolbox

// What a file importing only Media Toolbox uses, as Apple's module brings it: Core Media's times and
// item counts, and Core Audio's stream descriptions and buffer lists, which a tap's callbacks take.
enum MediaToolboxBrings {
    static func describe(_ format: AudioStreamBasicDescription, frames: CMItemCount, range: CMTimeRange) -> (Double, Int, Bool) {
        (format.mSampleRate, frames, range.duration > .zero && kMTAudioProcessingTapFlag_StartOfStream != 0)
    }
}
