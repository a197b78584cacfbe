import Foundation
import MovieEngine

/// An audio file opened for reading or writing, read and written in buffers of its processing
/// format (linear PCM at the file's rate and channels) whatever the file's own format is.
///
/// Reading opens any file FFmpeg reads (WAV, AIFF, CAF, M4A/AAC, MP3, FLAC, ...) and takes its
/// first sound track. Writing infers the file type from the URL's extension (`wav`, `aif`/`aiff`,
/// `caf`, `m4a`, `aac`, `flac`) and encodes as the settings say; the file appears at its URL,
/// replacing any there, only when it is closed (or the file object goes away) complete.
/// Thread ownership: one thread at a time.
open class AVAudioFile: NSObject {
    /// The file's URL.
    public let url: URL
    /// The format of the audio in the file.
    public let fileFormat: AVAudioFormat
    /// The format of the buffers read or written: linear PCM at the file's rate and channels.
    public let processingFormat: AVAudioFormat

    private var reader: SoundFileReader?
    private var writer: MovieEncoder?
    /// Where a file being written is written until it is closed.
    private var partialURL: URL?
    private var framesWritten: Int64 = 0
    /// Converts between the processing format and the interleaved floats read and written.
    private var converter: SampleConverter?
    private var floats = UnsafeMutablePointer<Float>.allocate(capacity: 1)
    private var floatCapacity = 0
    private let pointers = UnsafeMutablePointer<UnsafePointer<UInt8>?>.allocate(capacity: 64)
    private let mutablePointers = UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>.allocate(capacity: 64)

    // MARK: Opening

    /// Opens a file for reading in the standard format: deinterleaved 32-bit floats.
    public convenience init(forReading fileURL: URL) throws {
        try self.init(forReading: fileURL, commonFormat: .pcmFormatFloat32, interleaved: false)
    }

    /// Opens a file for reading in a processing format of the file's rate and channels.
    public init(forReading fileURL: URL, commonFormat format: AVAudioCommonFormat, interleaved: Bool) throws {
        guard format != .otherFormat else { throw Self.error(.unsupportedDataFormat, "the processing format must be linear PCM", fileURL) }
        let reader: SoundFileReader
        do { reader = try SoundFileReader(url: fileURL) } catch { throw Self.error(reading: error, fileURL) }
        let asbd = MovieFile.audioDescription(codec: reader.track.codecName, sampleRate: reader.sampleRate, channels: reader.channels)
        let layout = Self.layout(channels: reader.channels)
        var description = asbd
        guard let fileFormat = AVAudioFormat(streamDescription: &description, channelLayout: layout) else {
            throw Self.error(.unsupportedDataFormat, "the file's sound cannot be described (\(reader.track.codecName))", fileURL)
        }
        fileFormat.magicCookie = reader.track.formatDescription.magicCookie
        url = fileURL
        self.fileFormat = fileFormat
        processingFormat = Self.processing(format, sampleRate: Double(reader.sampleRate), channels: reader.channels, interleaved: interleaved, layout: layout)
        self.reader = reader
        super.init()
        converter = try makeConverter(
            from: .init(format: .float32, planar: false, sampleRate: reader.sampleRate, channels: reader.channels),
            to: AVAudioConverter.layout(processingFormat))
    }

    /// Opens a file for writing in the format the settings describe, with the standard processing format.
    public convenience init(forWriting fileURL: URL, settings: [String: Any]) throws {
        try self.init(forWriting: fileURL, settings: settings, commonFormat: .pcmFormatFloat32, interleaved: false)
    }

    /// Opens a file for writing in the format the settings describe, with a processing format of the
    /// file's rate and channels.
    public init(forWriting fileURL: URL, settings: [String: Any], commonFormat format: AVAudioCommonFormat, interleaved: Bool) throws {
        guard format != .otherFormat else { throw Self.error(.unsupportedDataFormat, "the processing format must be linear PCM", fileURL) }
        guard fileURL.isFileURL else { throw Self.error(.unsupportedFileType, "only files can be written", fileURL) }
        guard let parsed = AudioSettings(settings) else { throw Self.error(.unsupportedDataFormat, "the settings do not describe an audio format", fileURL) }
        let plan = try SoundFilePlan(url: fileURL, settings: parsed)
        var asbd = parsed.streamDescription
        asbd.mSampleRate = Double(plan.sampleRate)
        if plan.forcedByteOrder {
            // WAV is little-endian and AIFF big-endian whatever the settings say.
            asbd.mFormatFlags = plan.bigEndian ? asbd.mFormatFlags | kAudioFormatFlagIsBigEndian : asbd.mFormatFlags & ~kAudioFormatFlagIsBigEndian
        }
        asbd.mFormatFlags &= ~kAudioFormatFlagIsNonInterleaved
        if asbd.mFormatID == kAudioFormatLinearPCM {
            asbd.mBytesPerFrame = asbd.mBitsPerChannel / 8 * asbd.mChannelsPerFrame; asbd.mBytesPerPacket = asbd.mBytesPerFrame
        }
        let layout = parsed.channelLayout ?? Self.layout(channels: plan.channels)
        guard let fileFormat = AVAudioFormat(streamDescription: &asbd, channelLayout: layout) else {
            throw Self.error(.unsupportedDataFormat, "the settings do not describe an audio format", fileURL)
        }
        url = fileURL
        self.fileFormat = fileFormat
        processingFormat = Self.processing(format, sampleRate: Double(plan.sampleRate), channels: plan.channels, interleaved: interleaved, layout: layout)
        let folder = fileURL.deletingLastPathComponent()
        let partial = folder.appendingPathComponent(".\(fileURL.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).partial")
        var encoding = MovieEncoding(
            container: plan.container, audio: MovieEncoding.Audio(sampleRate: plan.sampleRate, channels: plan.channels, bitRate: plan.bitRate),
            fragmented: false)
        encoding.audio?.encoder = plan.encoder
        encoding.audio?.bitsPerSample = plan.bitsPerSample
        encoding.audio?.takesFloats = true
        encoding.fastStart = false
        do {
            writer = try MovieEncoder(url: partial, encoding: encoding, metadata: [])
        } catch {
            throw Self.error(writing: error, fileURL)
        }
        partialURL = partial
        super.init()
        converter = try makeConverter(
            from: AVAudioConverter.layout(processingFormat),
            to: .init(format: .float32, planar: false, sampleRate: plan.sampleRate, channels: plan.channels))
    }

    deinit {
        close()
        floats.deallocate()
        pointers.deallocate()
        mutablePointers.deallocate()
    }

    // MARK: The file's state

    /// The file's length in sample frames: the frames written so far, for a file being written.
    open var length: AVAudioFramePosition {
        if let reader { return (try? reader.length()) ?? reader.position }
        return framesWritten
    }

    /// The frame the next read starts at, or the next write goes to. Setting it moves reading
    /// there; a file being written is written in order, so setting it then does nothing.
    open var framePosition: AVAudioFramePosition {
        get { reader?.position ?? framesWritten }
        set {
            guard let reader else { return }
            try? reader.seek(to: max(0, newValue))
        }
    }

    /// Whether the file is open.
    open var isOpen: Bool { reader != nil || writer != nil }

    /// Closes the file: a file being written is finished and appears at its URL.
    open func close() {
        reader = nil
        guard let writer, let partialURL else { return }
        self.writer = nil
        self.partialURL = nil
        do {
            try writer.finish()
            if rename(partialURL.path, url.path) != 0 { unlink(partialURL.path) }
        } catch {
            unlink(partialURL.path)
        }
    }

    /// Closes a file being written without finishing it: nothing appears at its URL.
    func abandon() {
        guard let writer, let partialURL else { return }
        self.writer = nil
        self.partialURL = nil
        writer.abandon()
        unlink(partialURL.path)
    }

    // MARK: Reading and writing

    /// Reads frames into a buffer of the processing format, up to its capacity, from `framePosition`;
    /// the buffer's `frameLength` says how many (fewer at the end, 0 past it).
    open func read(into buffer: AVAudioPCMBuffer) throws {
        try read(into: buffer, frameCount: buffer.frameCapacity)
    }

    /// Reads up to `frames` frames into a buffer of the processing format, from `framePosition`.
    open func read(into buffer: AVAudioPCMBuffer, frameCount frames: AVAudioFrameCount) throws {
        guard let reader, let converter else { throw Self.error(.notOpen, "the file is not open for reading", url) }
        guard buffer.format.isEqual(processingFormat) else {
            throw Self.error(.paramErr, "the buffer is not in the file's processing format \(processingFormat)", url)
        }
        let wanted = Int(min(frames, buffer.frameCapacity))
        let channels = Int(processingFormat.channelCount)
        reserve(wanted * channels)
        let got: Int
        do { got = try reader.read(into: floats, frames: wanted) } catch { throw Self.error(reading: error, url) }
        pointers[0] = UnsafeRawPointer(floats).assumingMemoryBound(to: UInt8.self)
        for index in 0..<buffer.list.count { mutablePointers[index] = buffer.list[index].mData?.assumingMemoryBound(to: UInt8.self) }
        do {
            let made = got == 0 ? 0 : try converter.convert(pointers, frames: got, into: mutablePointers, capacity: wanted)
            buffer.frameLength = AVAudioFrameCount(made)
        } catch {
            throw Self.error(.unspecified, error.reason, url)
        }
    }

    /// Writes a buffer of the processing format at the end of the file.
    open func write(from buffer: AVAudioPCMBuffer) throws {
        guard let writer, let converter else { throw Self.error(.notOpen, "the file is not open for writing", url) }
        guard buffer.format.isEqual(processingFormat) else {
            throw Self.error(.paramErr, "the buffer is not in the file's processing format \(processingFormat)", url)
        }
        let frames = Int(buffer.frameLength)
        guard frames > 0 else { return }
        reserve(frames * Int(processingFormat.channelCount))
        for index in 0..<buffer.list.count { pointers[index] = buffer.list[index].mData.map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) } }
        mutablePointers[0] = UnsafeMutableRawPointer(floats).assumingMemoryBound(to: UInt8.self)
        do {
            let made = try converter.convert(pointers, frames: frames, into: mutablePointers, capacity: frames)
            try writer.appendAudio(floats: floats, frames: made, first: framesWritten)
            framesWritten += Int64(made)
        } catch let error as SampleConverter.Failure {
            throw Self.error(.unspecified, error.reason, url)
        } catch let error as MovieEncoderError {
            throw Self.error(writing: error, url)
        }
    }

    // MARK: Helpers

    /// Grows the float scratch buffer to hold `count` samples; it is kept from call to call.
    private func reserve(_ count: Int) {
        guard count > floatCapacity else { return }
        floats.deallocate()
        floats = .allocate(capacity: count)
        floatCapacity = count
    }

    private func makeConverter(from input: SampleConverter.Layout, to output: SampleConverter.Layout) throws -> SampleConverter {
        do { return try SampleConverter(from: input, to: output) } catch { throw Self.error(.unspecified, error.reason, url) }
    }

    /// The processing format for a common format at a rate and channels, with a layout for more than two.
    private static func processing(
        _ format: AVAudioCommonFormat, sampleRate: Double, channels: Int, interleaved: Bool, layout: AVAudioChannelLayout?
    ) -> AVAudioFormat {
        if let layout, channels > 2 { return AVAudioFormat(commonFormat: format, sampleRate: sampleRate, interleaved: interleaved, channelLayout: layout) }
        return AVAudioFormat(commonFormat: format, sampleRate: sampleRate, channels: AVAudioChannelCount(channels), interleaved: interleaved)!
    }

    /// The layout of a file's channels: none for one or two, discrete channels in order for more.
    private static func layout(channels: Int) -> AVAudioChannelLayout? {
        channels > 2 ? AVAudioChannelLayout(layoutTag: kAudioChannelLayoutTag_DiscreteInOrder | UInt32(channels)) : nil
    }

    /// Core Audio's status codes an audio file's errors carry.
    enum Status: Int {
        case unspecified = -1
        case paramErr = -50
        case fileNotFound = -43
        case notOpen = -38
        case unsupportedFileType = 0x7479_703F  // 'typ?'
        case unsupportedDataFormat = 0x666D_743F  // 'fmt?'
        case invalidFile = 0x6474_613F  // 'dta?'
        case permissions = 0x7072_6D3F  // 'prm?'
        case noSpace = -34
    }

    /// An error in `NSOSStatusErrorDomain` with a status, a reason, and the file.
    static func error(_ status: Status, _ reason: String, _ url: URL) -> NSError {
        NSError(
            domain: NSOSStatusErrorDomain, code: status.rawValue,
            userInfo: [NSLocalizedDescriptionKey: "\(url.lastPathComponent): \(reason)", NSURLErrorKey: url])
    }

    /// The error for a file that could not be read.
    static func error(reading failure: SoundFileReader.Failure, _ url: URL) -> NSError {
        switch failure {
        case .noSound: return error(.unsupportedDataFormat, "the file has no sound track", url)
        case .decoder(let code): return error(.invalidFile, "the sound could not be decoded: \(MovieFile.describe(code))", url)
        case .file(let problem):
            if problem.systemError == ENOENT { return error(.fileNotFound, "no such file", url) }
            if problem.systemError == EACCES { return error(.permissions, "permission denied", url) }
            return error(.invalidFile, problem.reason, url)
        }
    }

    /// The error for a file that could not be written.
    static func error(writing failure: MovieEncoderError, _ url: URL) -> NSError {
        switch failure {
        case .noSpace: return error(.noSpace, "no space left on the device", url)
        case .failed(let code, let message):
            if code == -EACCES { return error(.permissions, "permission denied", url) }
            if code == -ENOENT { return error(.fileNotFound, "the folder does not exist", url) }
            return error(.unspecified, message, url)
        }
    }
}
