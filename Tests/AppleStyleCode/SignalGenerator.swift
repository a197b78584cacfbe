import AVFoundation

/// A signal generator as Apple's sample builds one: an `AVAudioSourceNode` whose render block
/// writes a sine wave into every buffer of the list, connected to the main mixer, here rendered
/// offline into a file, as apps export what they generate.
public enum SignalGenerator {
    public static func renderSine(frequency: Float, amplitude: Float, seconds: Double, to url: URL) throws {
        let engine = AVAudioEngine()
        let format = AVAudioFormat(standardFormatWithSampleRate: 44_100, channels: 2)!
        try engine.enableManualRenderingMode(.offline, format: format, maximumFrameCount: 4096)
        var currentPhase: Float = 0
        let phaseIncrement = (2 * Float.pi / Float(format.sampleRate)) * frequency
        let sourceNode = AVAudioSourceNode { _, _, frameCount, audioBufferList -> OSStatus in
            let ablPointer = UnsafeMutableAudioBufferListPointer(audioBufferList)
            for frame in 0..<Int(frameCount) {
                let value = sin(currentPhase) * amplitude
                currentPhase += phaseIncrement
                if currentPhase >= 2 * .pi { currentPhase -= 2 * .pi }
                for buffer in ablPointer {
                    let buf: UnsafeMutableBufferPointer<Float> = UnsafeMutableBufferPointer(buffer)
                    buf[frame] = value
                }
            }
            return noErr
        }
        engine.attach(sourceNode)
        engine.connect(sourceNode, to: engine.mainMixerNode, format: format)
        try engine.start()
        let output = try AVAudioFile(forWriting: url, settings: format.settings)
        let buffer = AVAudioPCMBuffer(pcmFormat: engine.manualRenderingFormat, frameCapacity: engine.manualRenderingMaximumFrameCount)!
        let total = AVAudioFramePosition(seconds * format.sampleRate)
        while engine.manualRenderingSampleTime < total {
            let frameCount = total - engine.manualRenderingSampleTime
            let framesToRender = min(AVAudioFrameCount(frameCount), buffer.frameCapacity)
            let status = try engine.renderOffline(framesToRender, to: buffer)
            switch status {
            case .success:
                try output.write(from: buffer)
            case .insufficientDataFromInputNode, .cannotDoInCurrentContext:
                continue
            case .error:
                throw NSError(domain: "SignalGenerator", code: 1)
            @unknown default:
                throw NSError(domain: "SignalGenerator", code: 2)
            }
        }
        engine.stop()
    }
}
