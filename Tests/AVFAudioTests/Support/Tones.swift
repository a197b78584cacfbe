import AVFAudio

/// Sine tones written into buffers, and measures of what buffers hold.
enum Tones {
    /// A buffer of the standard format holding a sine tone in every channel (channel n at
    /// `frequency * (n + 1)`), at `amplitude`.
    static func sine(frequency: Double, seconds: Double, sampleRate: Double = 48_000, channels: AVAudioChannelCount = 1, amplitude: Float = 0.5)
        -> AVAudioPCMBuffer
    {
        let format = AVAudioFormat(standardFormatWithSampleRate: sampleRate, channels: channels)!
        let frames = AVAudioFrameCount((seconds * sampleRate).rounded())
        let buffer = AVAudioPCMBuffer(pcmFormat: format, frameCapacity: frames)!
        buffer.frameLength = frames
        for channel in 0..<Int(channels) {
            let samples = buffer.floatChannelData![channel]
            let step = 2 * Double.pi * frequency * Double(channel + 1) / sampleRate
            for frame in 0..<Int(frames) { samples[frame] = amplitude * Float(sin(step * Double(frame))) }
        }
        return buffer
    }

    /// A mono 16-bit WAV file of a 440 Hz tone at half of full scale, `seconds` long, in `folder`.
    static func wavFile(in folder: URL, seconds: Double, sampleRate: Double) throws -> URL {
        let url = folder.appendingPathComponent("tone-\(seconds).wav")
        let file = try AVAudioFile(forWriting: url, settings: [AVFormatIDKey: kAudioFormatLinearPCM, AVSampleRateKey: sampleRate, AVNumberOfChannelsKey: 1])
        try file.write(from: sine(frequency: 440, seconds: seconds, sampleRate: sampleRate))
        file.close()
        return url
    }

    /// A channel's samples of a float buffer, as an array.
    static func samples(_ buffer: AVAudioPCMBuffer, channel: Int = 0) -> [Float] {
        let data = buffer.floatChannelData![channel]
        return (0..<Int(buffer.frameLength)).map { data[$0 * buffer.stride] }
    }

    /// The frequency in hertz of samples at a rate: the rate over the median period between rising
    /// zero crossings, each placed between its two samples.
    static func frequency(_ samples: [Float], rate: Double) -> Double {
        var crossings: [Double] = []
        for index in 1..<samples.count where samples[index - 1] < 0 && samples[index] >= 0 {
            let previous = Double(samples[index - 1]), current = Double(samples[index])
            crossings.append(Double(index - 1) + -previous / (current - previous))
        }
        guard crossings.count > 2 else { return 0 }
        let periods = zip(crossings.dropFirst(), crossings).map { $0 - $1 }.sorted()
        return rate / periods[periods.count / 2]
    }

    /// The root mean square of samples.
    static func rms(_ samples: [Float]) -> Double {
        guard !samples.isEmpty else { return 0 }
        return (samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }
}

extension Tones {
    /// The amplitude of one frequency in samples (Goertzel's algorithm), as a sine's peak would read.
    static func amplitude(of frequency: Double, in samples: [Float], rate: Double) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * frequency / rate)
        var previous = 0.0, beforePrevious = 0.0
        for sample in samples {
            let current = Double(sample) + coefficient * previous - beforePrevious
            beforePrevious = previous
            previous = current
        }
        let power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
        return 2 * power.squareRoot() / Double(samples.count)
    }
}
