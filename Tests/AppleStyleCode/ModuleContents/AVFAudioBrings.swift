import AVFAudio

// What a file importing only AVFAudio uses, as Apple's module brings it: Audio Toolbox (its
// audio queues and system sounds), Core Audio's types and Foundation.
enum AVFAudioBrings {
    /// A recording queue in the format an engine's node gives, started, as a voice memo app makes one.
    static func recordingQueue(like node: AVAudioInputNode) -> (OSStatus, AudioQueueRef?) {
        var format = node.outputFormat(forBus: 0).streamDescription.pointee
        format.mFormatFlags |= kAudioFormatFlagIsPacked
        var queue: AudioQueueRef?
        let status = AudioQueueNewInput(&format, { _, queue, buffer, _, _, _ in AudioQueueEnqueueBuffer(queue, buffer, 0, nil) }, nil, nil, nil, 0, &queue)
        return (status, queue)
    }

    /// The shutter sound, as a camera app plays it when a photo is taken.
    static func shutter(then done: @escaping @Sendable () -> Void) {
        AudioServicesPlaySystemSoundWithCompletion(SystemSoundID(1108), done)
    }

    static func describe(_ file: AVAudioFile) -> String {
        String(format: "%.1f s of %@", Double(file.length) / file.processingFormat.sampleRate, file.url.lastPathComponent)
    }
}
