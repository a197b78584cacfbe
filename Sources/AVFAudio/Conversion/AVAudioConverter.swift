import Foundation
import MovieEngine

/// What an audio converter's input block says about the input it gives.
public enum AVAudioConverterInputStatus: Int, @unchecked Sendable {
    /// The block gave a buffer of input.
    case haveData = 0
    /// The block has no input now; more may come later.
    case noDataNow = 1
    /// The input has ended.
    case endOfStream = 2
}

/// What came of a conversion with an input block.
public enum AVAudioConverterOutputStatus: Int, @unchecked Sendable {
    /// The output buffer holds converted audio.
    case haveData = 0
    /// The input block had no input now, and the output buffer holds nothing.
    case inputRanDry = 1
    /// The input has ended and every frame has been given.
    case endOfStream = 2
    /// The conversion failed; the error says why.
    case error = 3
}

/// How a converter primes a sample rate converter at the start of a stream.
public enum AVAudioConverterPrimeMethod: Int, @unchecked Sendable {
    /// Primes with leading frames the input supplies.
    case pre = 0
    /// Primes with silence, as if the stream had leading frames of silence.
    case normal = 1
    /// Does not prime.
    case none = 2
}

/// The frames before and after a stream that a sample rate converter's filter reaches.
public struct AVAudioConverterPrimeInfo: Sendable, Equatable {
    /// Frames before the first output frame.
    public var leadingFrames: AVAudioFrameCount
    /// Frames after the last output frame.
    public var trailingFrames: AVAudioFrameCount

    /// Creates prime information of no frames.
    public init() {
        leadingFrames = 0
        trailingFrames = 0
    }

    /// Creates prime information.
    public init(leadingFrames: AVAudioFrameCount, trailingFrames: AVAudioFrameCount) {
        self.leadingFrames = leadingFrames
        self.trailingFrames = trailingFrames
    }
}

/// A block that gives a converter its input: asked for a number of packets (frames, for PCM),
/// it returns a buffer and says through `outStatus` whether it has data, none now, or no more.
public typealias AVAudioConverterInputBlock = (AVAudioPacketCount, UnsafeMutablePointer<AVAudioConverterInputStatus>) -> AVAudioBuffer?

/// Converts audio between linear PCM formats: sample format, interleaving, channel count and
/// sample rate, with libswresample.
///
/// Converting between rates keeps the resampler's state from call to call, so a stream comes out
/// whole however it is cut into buffers; `reset()` starts a new one. Thread ownership: one thread
/// at a time.
open class AVAudioConverter: NSObject, @unchecked Sendable {
    /// The format converted from.
    public let inputFormat: AVAudioFormat
    /// The format converted to.
    public let outputFormat: AVAudioFormat

    private var converter: SampleConverter?
    private var configured = false
    private var ended = false
    /// Whether the input has ended and the resampler is giving its last frames.
    private var draining = false
    private let inputPointers: UnsafeMutablePointer<UnsafePointer<UInt8>?>
    private let outputPointers: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>
    /// A byte to point at when handing the resampler no frames.
    private let noFrames = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)

    /// For each output channel, the input channel it takes (-1 for silence). Setting it replaces
    /// the default, which keeps channels in order, gives a mono input to every output channel,
    /// and, when `downmix` is set, mixes inputs into fewer outputs.
    open var channelMap: [NSNumber] {
        didSet { configured = false }
    }
    /// Whether an input with more channels than the output is mixed down, rather than its extra channels dropped.
    open var downmix = false {
        didSet { configured = false }
    }
    /// Whether dither is added when converting to fewer bits.
    open var dither = false {
        didSet { configured = false }
    }
    /// The sample rate converter's quality: an `AVAudioQuality` raw value (longer filters are better and slower).
    open var sampleRateConverterQuality: Int = AVAudioQuality.high.rawValue {
        didSet { configured = false }
    }
    /// The sample rate converter's algorithm: one of the `AVSampleRateConverterAlgorithm_` values.
    open var sampleRateConverterAlgorithm: String? = AVSampleRateConverterAlgorithm_Normal {
        didSet { configured = false }
    }
    /// How the sample rate converter is primed. libswresample aligns its output with its input
    /// itself, so every method gives the same frames here.
    open var primeMethod: AVAudioConverterPrimeMethod = .normal
    /// The frames before and after the stream that priming reaches.
    open var primeInfo = AVAudioConverterPrimeInfo()

    /// The compressed side, when the converter encodes or decodes.
    private let compressedSide: CompressedConversion?

    /// The encoder's bit rate, in bits a second (set before converting); 0 for the encoder's choice.
    open var bitRate: Int = 0
    /// The bit rate strategy (one of the `AVAudioBitRateStrategy_` values); the encoder keeps an average.
    open var bitRateStrategy: String?
    /// The codec's configuration: the encoder's, once it has started, or the one the decoder is given.
    open var magicCookie: Data? {
        get { compressedSide?.encoderMagicCookie ?? storedCookie }
        set { storedCookie = newValue }
    }
    private var storedCookie: Data?

    /// The largest packet the encoder makes, in bytes: AAC's 6144 bits a channel.
    open var maximumOutputPacketSize: Int { outputFormat.commonFormat == .otherFormat ? 768 * Int(outputFormat.channelCount) : 0 }

    /// Creates a converter between two linear PCM formats, or from linear PCM to AAC (encoding), or from
    /// AAC, MP3, FLAC, Apple Lossless or Opus to linear PCM (decoding) at the same rate and channels;
    /// nil for other pairs.
    public init?(from fromFormat: AVAudioFormat, to toFormat: AVAudioFormat) {
        switch (fromFormat.commonFormat == .otherFormat, toFormat.commonFormat == .otherFormat) {
        case (false, false): compressedSide = nil
        case (false, true):
            guard let coding = CompressedConversion(pcm: fromFormat, compressed: toFormat, encoding: true) else { return nil }
            compressedSide = coding
        case (true, false):
            guard let coding = CompressedConversion(pcm: toFormat, compressed: fromFormat, encoding: false) else { return nil }
            compressedSide = coding
        case (true, true): return nil
        }
        inputFormat = fromFormat
        outputFormat = toFormat
        let outputs = Int(toFormat.channelCount), inputs = Int(fromFormat.channelCount)
        channelMap = (0..<outputs).map { NSNumber(value: inputs == 1 ? 0 : ($0 < inputs ? $0 : -1)) }
        inputPointers = .allocate(capacity: max(inputs, 1))
        outputPointers = .allocate(capacity: max(outputs, 1))
        super.init()
    }

    deinit {
        inputPointers.deallocate()
        outputPointers.deallocate()
        noFrames.deallocate()
    }

    /// Forgets the stream converted so far (what the sample rate converter holds), to start another.
    open func reset() {
        compressedSide?.reset()
        configured = false
        converter = nil
        ended = false
        draining = false
    }

    // MARK: Converting

    /// Converts a buffer into another of the same sample rate: format, interleaving and channels.
    /// Throws when the rates differ (use the input block form) or the output cannot hold the input.
    open func convert(to outputBuffer: AVAudioPCMBuffer, from inputBuffer: AVAudioPCMBuffer) throws {
        guard compressedSide == nil else { throw Self.error(.paramErr, "this form converts linear PCM only; use convert(to:error:withInputFrom:)") }
        guard inputFormat.sampleRate == outputFormat.sampleRate else {
            throw Self.error(.paramErr, "this form cannot convert between sample rates; use convert(to:error:withInputFrom:)")
        }
        guard inputBuffer.format.isEqual(inputFormat), outputBuffer.format.isEqual(outputFormat) else {
            throw Self.error(.formatNotSupported, "the buffers are not in the converter's formats")
        }
        guard outputBuffer.frameCapacity >= inputBuffer.frameLength else {
            throw Self.error(.paramErr, "the output buffer holds \(outputBuffer.frameCapacity) frames; the input has \(inputBuffer.frameLength)")
        }
        let converter = try ready()
        pointInput(at: inputBuffer)
        pointOutput(at: outputBuffer, from: 0)
        do {
            let made = try converter.convert(
                UnsafePointer(inputPointers), frames: Int(inputBuffer.frameLength), into: outputPointers, capacity: Int(outputBuffer.frameCapacity))
            outputBuffer.frameLength = AVAudioFrameCount(made)
        } catch {
            throw Self.error(.unspecified, error.reason)
        }
    }

    /// Fills the output buffer with converted audio, asking `inputBlock` for input as it needs it;
    /// says whether the buffer holds audio, the input ran dry, or the stream has ended. On
    /// `.error`, `outError` says why.
    open func convert(to outputBuffer: AVAudioBuffer, error outError: NSErrorPointer, withInputFrom inputBlock: AVAudioConverterInputBlock)
        -> AVAudioConverterOutputStatus
    {
        convert(to: outputBuffer, frames: nil, error: outError, withInputFrom: inputBlock)
    }

    /// As `convert(to:error:withInputFrom:)`, filling at most `frames` frames of the output (nil: its capacity).
    func convert(to outputBuffer: AVAudioBuffer, frames limit: Int?, error outError: NSErrorPointer, withInputFrom inputBlock: AVAudioConverterInputBlock)
        -> AVAudioConverterOutputStatus
    {
        if let compressedSide {
            do {
                if inputFormat.commonFormat != .otherFormat {
                    guard let packets = outputBuffer as? AVAudioCompressedBuffer, packets.format.isEqual(outputFormat) else {
                        throw Self.error(.formatNotSupported, "the output buffer is not a compressed buffer in the converter's output format")
                    }
                    return try compressedSide.encode(into: packets, bitRate: bitRate, input: inputBlock)
                }
                guard let pcm = outputBuffer as? AVAudioPCMBuffer, pcm.format.isEqual(outputFormat) else {
                    throw Self.error(.formatNotSupported, "the output buffer is not a PCM buffer in the converter's output format")
                }
                return try compressedSide.decode(into: pcm, magicCookie: storedCookie, input: inputBlock)
            } catch {
                outError?.pointee = error as NSError
                return .error
            }
        }
        guard let output = outputBuffer as? AVAudioPCMBuffer, output.format.isEqual(outputFormat) else {
            outError?.pointee = Self.error(.formatNotSupported, "the output buffer is not a PCM buffer in the converter's output format")
            return .error
        }
        output.frameLength = 0
        if ended { return .endOfStream }
        let converter: SampleConverter
        do { converter = try ready() } catch {
            outError?.pointee = error as NSError
            return .error
        }
        let capacity = min(Int(output.frameCapacity), limit ?? Int.max)
        var produced = 0
        var inputEnded = false
        do {
            while produced < capacity {
                // What the converter holds from earlier input first.
                pointOutput(at: output, from: produced)
                pointInput(at: nil)
                produced += try converter.convert(UnsafePointer(inputPointers), frames: 0, into: outputPointers, capacity: capacity - produced)
                if produced == capacity { break }
                if inputEnded || draining {
                    // The input has ended: the resampler's filter gives its last frames, over as many calls as they need.
                    draining = true
                    pointOutput(at: output, from: produced)
                    let tail = try converter.convert(nil, frames: 0, into: outputPointers, capacity: capacity - produced)
                    produced += tail
                    if tail == 0 { ended = true; break }
                    continue
                }
                var status = AVAudioConverterInputStatus.haveData
                let wanted = max(1, Int((Double(capacity - produced) * inputFormat.sampleRate / outputFormat.sampleRate).rounded(.up)))
                let given = inputBlock(AVAudioPacketCount(clamping: wanted), &status)
                switch status {
                case .noDataNow:
                    output.frameLength = AVAudioFrameCount(produced)
                    return produced > 0 ? .haveData : .inputRanDry
                case .endOfStream:
                    inputEnded = true
                case .haveData:
                    guard let input = given as? AVAudioPCMBuffer, input.format.isEqual(inputFormat) else {
                        output.frameLength = AVAudioFrameCount(produced)
                        outError?.pointee = Self.error(.formatNotSupported, "the input block gave a buffer that is not in the converter's input format")
                        return .error
                    }
                    pointInput(at: input)
                    pointOutput(at: output, from: produced)
                    produced += try converter.convert(
                        UnsafePointer(inputPointers), frames: Int(input.frameLength), into: outputPointers, capacity: capacity - produced)
                }
            }
        } catch {
            output.frameLength = AVAudioFrameCount(produced)
            outError?.pointee = Self.error(.unspecified, error.reason)
            return .error
        }
        output.frameLength = AVAudioFrameCount(produced)
        return produced > 0 ? .haveData : .endOfStream
    }

    // MARK: Helpers

    /// The converter for the current settings, made again after a setting changed.
    private func ready() throws -> SampleConverter {
        if configured, let converter { return converter }
        let quality = AVAudioQuality(rawValue: sampleRateConverterQuality) ?? .high
        var filter: Int
        switch quality {
        case .min: filter = 8
        case .low: filter = 16
        case .medium: filter = 24
        case .high: filter = 32
        case .max: filter = 64
        }
        if sampleRateConverterAlgorithm == AVSampleRateConverterAlgorithm_Mastering { filter = max(filter, 64) }
        do {
            let made = try SampleConverter(
                from: Self.layout(inputFormat), to: Self.layout(outputFormat), matrix: weights(), filterLength: filter, dither: dither)
            converter = made
            configured = true
            ended = false
            draining = false
            return made
        } catch {
            throw Self.error(.unspecified, error.reason)
        }
    }

    /// Each input channel's weight in each output channel, from the channel map or the downmix.
    private func weights() -> [Double] {
        let inputs = Int(inputFormat.channelCount), outputs = Int(outputFormat.channelCount)
        var weights = [Double](repeating: 0, count: inputs * outputs)
        let defaultMap = (0..<outputs).map { inputs == 1 ? 0 : ($0 < inputs ? $0 : -1) }
        let map = channelMap.map(\.intValue)
        if downmix, inputs > outputs, map == defaultMap {
            // Each output channel is the mean of the input channels that fold onto it.
            for input in 0..<inputs {
                let output = input % outputs
                let sharing = (0..<inputs).filter { $0 % outputs == output }.count
                weights[output * inputs + input] = 1 / Double(sharing)
            }
            return weights
        }
        for output in 0..<outputs {
            let input = output < map.count ? map[output] : -1
            if input >= 0, input < inputs { weights[output * inputs + input] = 1 }
        }
        return weights
    }

    /// Points the input pointers at a buffer's channels (or its one interleaved buffer); nil points
    /// them at no frames, which asks the resampler for what it holds without ending the stream.
    private func pointInput(at buffer: AVAudioPCMBuffer?) {
        guard let buffer else {
            inputPointers[0] = UnsafePointer(noFrames)
            return
        }
        for index in 0..<buffer.list.count { inputPointers[index] = buffer.list[index].mData.map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) } }
    }

    /// Points the output pointers at a buffer's channels (or its one interleaved buffer), from frame `frame`.
    private func pointOutput(at buffer: AVAudioPCMBuffer, from frame: Int) {
        let offset = frame * Int(buffer.format.streamDescription.pointee.mBytesPerFrame)
        for index in 0..<buffer.list.count { outputPointers[index] = buffer.list[index].mData.map { ($0 + offset).assumingMemoryBound(to: UInt8.self) } }
    }

    /// The sample converter's layout for a common PCM format.
    static func layout(_ format: AVAudioFormat) -> SampleConverter.Layout {
        let sample: SampleConverter.Format =
            switch format.commonFormat {
            case .pcmFormatInt16: .int16
            case .pcmFormatInt32: .int32
            case .pcmFormatFloat64: .float64
            default: .float32
            }
        return SampleConverter.Layout(
            format: sample, planar: !format.isInterleaved, sampleRate: Int(format.sampleRate.rounded()), channels: Int(format.channelCount))
    }

    /// Core Audio's status codes the converter's errors carry.
    enum Status: Int {
        case unspecified = -1
        case paramErr = -50
        case formatNotSupported = 0x666D_743F  // 'fmt?'
    }

    /// An error in `NSOSStatusErrorDomain` with a status and a reason.
    static func error(_ status: Status, _ reason: String) -> NSError {
        NSError(domain: NSOSStatusErrorDomain, code: status.rawValue, userInfo: [NSLocalizedDescriptionKey: reason])
    }
}
