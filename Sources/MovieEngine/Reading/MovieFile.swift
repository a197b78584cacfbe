import CMediaCodecs
import CoreGraphics
import CoreMedia
import Foundation

/// A movie file opened with FFmpeg's demuxers.
///
/// Thread ownership: one movie file belongs to one thread at a time; an asset opens one to learn
/// its contents, and each asset reader opens its own.
package final class MovieFile {
    let reader: OpaquePointer
    /// The file.
    package let url: URL
    /// Where a movie read from a byte source is read, kept while FFmpeg may call it.
    private var cursor: ByteCursor?
    /// The clean apertures the file's video tracks declare, by stream (FFmpeg does not read them).
    private lazy var cleanApertures: [Int: CleanApertureBox] = cursor == nil ? MovieBoxes.cleanApertures(of: url) : [:]

    /// Opens a file, or throws the error that says why it cannot be read.
    package init(url: URL) throws(MovieFileError) {
        guard url.isFileURL else { throw MovieFileError(url: url, problem: .notAFile) }
        FFmpegLog.installed  // FFmpeg's messages about damaged files go to the library log, not standard error
        // Only regular files: opening a FIFO would wait for a writer for ever, and a device never ends.
        var status = stat()
        if stat(url.path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            let kind =
                switch status.st_mode & S_IFMT {
                case S_IFDIR: "a folder"
                case S_IFIFO: "a pipe"
                case S_IFCHR, S_IFBLK: "a device"
                default: "not a regular file"
                }
            throw MovieFileError(url: url, problem: .notARegularFile(kind))
        }
        var error: Int32 = 0
        guard let reader = cmc_reader_open(url.path, &error) else { throw MovieFileError(url: url, problem: .unreadable(code: error)) }
        self.reader = reader
        self.url = url
        cursor = nil
    }

    /// Opens a movie read from `source` rather than a file (`url` names it), or throws the error
    /// that says why it cannot be read. FFmpeg reads and seeks it on the caller's thread.
    package init(source: any MovieByteSource, url: URL) throws(MovieFileError) {
        FFmpegLog.installed
        let cursor = ByteCursor(source)
        var error: Int32 = 0
        let read: cmc_stream_read = { opaque, buffer, size in
            guard let opaque, let buffer, size > 0 else { return 0 }
            return Unmanaged<ByteCursor>.fromOpaque(opaque).takeUnretainedValue().read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(size)))
        }
        let seek: cmc_stream_seek = { opaque, offset, whence in
            guard let opaque else { return -1 }
            return Unmanaged<ByteCursor>.fromOpaque(opaque).takeUnretainedValue().seek(offset, whence: whence)
        }
        guard let reader = cmc_reader_open_stream(Unmanaged.passUnretained(cursor).toOpaque(), read, seek, url.absoluteString, &error) else {
            throw MovieFileError(url: url, problem: .unreadable(code: error))
        }
        self.reader = reader
        self.url = url
        self.cursor = cursor
    }

    deinit { cmc_reader_free(reader) }

    /// FFmpeg's description of an error.
    package static func describe(_ code: Int32) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { text in
            cmc_error_string(code, text.baseAddress!, text.count)
            return String(cString: text.baseAddress!)
        }
    }

    /// FFmpeg's names for the container format, comma-separated ("mov,mp4,m4a,3gp,3g2,mj2", "wav").
    package var formatName: String { String(cString: cmc_reader_format_name(reader)) }

    /// The movie's length in microseconds, if the container says.
    package var durationMicroseconds: Int64? {
        let value = cmc_reader_duration_us(reader)
        return value == Int64.min ? nil : value
    }

    /// The container's metadata, key and value.
    package var metadataEntries: [(String, String)] {
        var entries: [(String, String)] = []
        var index: Int32 = 0
        var value: UnsafePointer<CChar>?
        while let key = cmc_reader_metadata(reader, index, &value), let value {
            entries.append((String(cString: key), String(cString: value)))
            index += 1
        }
        return entries
    }

    /// The movie's audio and video streams, and its timed ID3 streams, as tracks; other streams
    /// (timecode, chapters) are left out.
    package var tracks: [TrackFacts] {
        var tracks: [TrackFacts] = []
        for index in 0..<Int(cmc_reader_stream_count(reader)) {
            var info = cmc_stream_info()
            guard cmc_reader_stream_info(reader, Int32(index), &info) == 0, info.time_base_num > 0, info.time_base_den > 0 else { continue }
            let kind = Int(info.kind)
            if kind == CMC_STREAM_VIDEO || kind == CMC_STREAM_AUDIO {
                tracks.append(facts(of: info, index: index))
            } else if String(cString: info.codec_name) == TimedID3.codecName {
                tracks.append(metadataFacts(of: info, index: index))
            }
        }
        return tracks
    }

    /// A timed ID3 stream's facts: its format is `kCMMetadataFormatType_ID3`, and it lasts as long as the movie.
    private func metadataFacts(of info: cmc_stream_info, index: Int) -> TrackFacts {
        let timeBase = (numerator: info.time_base_num, denominator: info.time_base_den)
        let (start, duration) = span(of: info)
        return TrackFacts(
            streamIndex: index, trackID: info.id > 0 ? CMPersistentTrackID(info.id) : CMPersistentTrackID(index + 1), kind: .metadata,
            codecName: TimedID3.codecName, formatDescription: CMFormatDescription(metadata: kCMMetadataFormatType_ID3), naturalSize: .zero,
            preferredTransform: .identity, nominalFrameRate: 0, minFrameDuration: .invalid,
            timeRange: CMTimeRange(start: start, duration: duration.isValid && duration >= .zero ? duration : .zero),
            naturalTimeScale: info.time_base_num == 1 ? info.time_base_den : 0, estimatedDataRate: 0, totalSampleDataLength: 0,
            isEnabled: true, isDecodable: TimedID3.problem == nil, requiresFrameReordering: false,
            languageCode: info.language.map { String(cString: $0) }, sampleRate: 0, channels: 0, timeBase: timeBase)
    }

    /// Where a stream starts and how long it lasts, as the container says (from the start, and
    /// the movie's length, when the stream does not say).
    private func span(of info: cmc_stream_info) -> (start: CMTime, duration: CMTime) {
        let timeBase = (numerator: info.time_base_num, denominator: info.time_base_den)
        let start = info.start_time == Int64.min ? CMTime.zero : Self.time(info.start_time, timeBase: timeBase)
        var duration = Self.time(info.duration, timeBase: timeBase)
        if !duration.isValid, let micros = durationMicroseconds { duration = CMTime(value: micros, timescale: 1_000_000) - start }
        return (start, duration)
    }

    /// A time counted in a stream's time base as a `CMTime` (invalid for FFmpeg's "unknown").
    package static func time(_ value: Int64, timeBase: (numerator: Int32, denominator: Int32)) -> CMTime {
        guard value != Int64.min else { return .invalid }
        return CMTime(value: value * Int64(timeBase.numerator), timescale: timeBase.denominator)
    }

    private func facts(of info: cmc_stream_info, index: Int) -> TrackFacts {
        let codec = String(cString: info.codec_name)
        let timeBase = (numerator: info.time_base_num, denominator: info.time_base_den)
        let extradata = info.extradata.map { Data(bytes: $0, count: Int(info.extradata_size)) } ?? Data()
        var samples: Int64 = 0, bytes: Int64 = 0, shortest: Int64 = 0
        var reorders: Int32 = 0
        cmc_reader_index_summary(reader, Int32(index), &samples, &bytes, &shortest, &reorders)
        let (start, duration) = span(of: info)
        let timeRange = duration.isValid ? CMTimeRange(start: start, duration: duration) : CMTimeRange(start: start, duration: .zero)
        let seconds = duration.isValid ? duration.seconds : 0
        let dataRate: Float = info.bit_rate > 0 ? Float(info.bit_rate) : (seconds > 0 ? Float(Double(bytes) * 8 / seconds) : 0)
        let isVideo = Int(info.kind) == CMC_STREAM_VIDEO
        let formatDescription: CMFormatDescription
        var naturalSize = CGSize.zero
        var transform = CGAffineTransform.identity
        var nominalRate: Float = 0
        var minFrameDuration = CMTime.invalid
        if isVideo {
            let (codecType, atom): (CMVideoCodecType, String?) =
                switch codec {
                case "h264": (kCMVideoCodecType_H264, "avcC")
                case "hevc": (kCMVideoCodecType_HEVC, "hvcC")
                case "mjpeg": (kCMVideoCodecType_JPEG, nil)
                // Others by the container's own code where it has one ('apch' for ProRes 422 HQ), as Apple's reader names them.
                default: (Self.isPrintable(info.codec_tag) ? info.codec_tag : Self.fourCC(codec), nil)
                }
            var atoms: [String: Data] = [:]
            if let atom, !extradata.isEmpty { atoms[atom] = extradata }
            // Non-square pixels (the container's `pasp`, or the stream's own aspect ratio) are the format's pixel aspect ratio.
            var geometry = ImageGeometry()
            if info.sample_aspect_num > 0, info.sample_aspect_den > 0, info.sample_aspect_num != info.sample_aspect_den {
                geometry.pixelAspectRatio = (Int(info.sample_aspect_num), Int(info.sample_aspect_den))
            }
            if let aperture = cleanApertures[index] {
                geometry.cleanAperture = (aperture.width, aperture.height, aperture.horizontalOffset, aperture.verticalOffset)
            }
            formatDescription = CMFormatDescription(video: codecType, width: info.width, height: info.height, extensionAtoms: atoms, geometry: geometry)
            naturalSize = formatDescription.presentationDimensions(usePixelAspectRatio: true, useCleanAperture: false)
            transform = Self.displayTransform(degrees: Int(info.rotation_degrees), mirrored: info.mirrored != 0, size: naturalSize)
            if info.avg_rate_num > 0, info.avg_rate_den > 0 {
                nominalRate = Float(Double(info.avg_rate_num) / Double(info.avg_rate_den))
            } else if samples > 0, seconds > 0 {
                nominalRate = Float(Double(samples) / seconds)
            }
            if shortest != Int64.min, shortest > 0 {
                minFrameDuration = Self.time(shortest, timeBase: timeBase)
            } else if nominalRate > 0 {
                minFrameDuration = CMTime(value: 1_000_000, timescale: CMTimeScale((1_000_000 * nominalRate).rounded()))
            }
        } else {
            let asbd = Self.audioDescription(codec: codec, sampleRate: Int(info.sample_rate), channels: Int(max(0, info.channels)))
            formatDescription = CMFormatDescription(audio: asbd, magicCookie: extradata.isEmpty ? nil : extradata)
        }
        return TrackFacts(
            streamIndex: index, trackID: info.id > 0 ? CMPersistentTrackID(info.id) : CMPersistentTrackID(index + 1),
            kind: isVideo ? .video : .audio, codecName: codec, formatDescription: formatDescription,
            naturalSize: naturalSize, preferredTransform: transform, nominalFrameRate: nominalRate,
            minFrameDuration: minFrameDuration, timeRange: timeRange,
            naturalTimeScale: info.time_base_num == 1 ? info.time_base_den : 0, estimatedDataRate: dataRate,
            totalSampleDataLength: bytes, isEnabled: info.is_default != 0, isDecodable: cmc_decoder_available(codec) != 0,
            requiresFrameReordering: reorders != 0, languageCode: info.language.map { String(cString: $0) },
            sampleRate: Int(info.sample_rate), channels: Int(info.channels), timeBase: timeBase)
    }

    /// The stream description of sound in FFmpeg's codec `codec`: linear PCM fully described,
    /// compressed formats by their format ID.
    package static func audioDescription(codec: String, sampleRate: Int, channels: Int) -> AudioStreamBasicDescription {
        var asbd = AudioStreamBasicDescription()
        asbd.mSampleRate = Float64(sampleRate)
        asbd.mChannelsPerFrame = UInt32(channels)
        // Linear PCM: FFmpeg's pcm_<sign><bits><endianness> names.
        let linear: [String: (bits: UInt32, flags: AudioFormatFlags)] = [
            "pcm_u8": (8, 0),
            "pcm_s16le": (16, kAudioFormatFlagIsSignedInteger), "pcm_s16be": (16, kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsBigEndian),
            "pcm_s24le": (24, kAudioFormatFlagIsSignedInteger), "pcm_s24be": (24, kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsBigEndian),
            "pcm_s32le": (32, kAudioFormatFlagIsSignedInteger), "pcm_s32be": (32, kAudioFormatFlagIsSignedInteger | kAudioFormatFlagIsBigEndian),
            "pcm_f32le": (32, kAudioFormatFlagIsFloat), "pcm_f32be": (32, kAudioFormatFlagIsFloat | kAudioFormatFlagIsBigEndian),
            "pcm_f64le": (64, kAudioFormatFlagIsFloat), "pcm_f64be": (64, kAudioFormatFlagIsFloat | kAudioFormatFlagIsBigEndian),
        ]
        if let pcm = linear[codec] {
            asbd.mFormatID = kAudioFormatLinearPCM
            asbd.mFormatFlags = pcm.flags | kAudioFormatFlagIsPacked
            asbd.mBitsPerChannel = pcm.bits
            asbd.mFramesPerPacket = 1
            asbd.mBytesPerFrame = pcm.bits / 8 * asbd.mChannelsPerFrame
            asbd.mBytesPerPacket = asbd.mBytesPerFrame
            return asbd
        }
        switch codec {
        case "aac":
            asbd.mFormatID = kAudioFormatMPEG4AAC
            asbd.mFramesPerPacket = 1024
        case "mp3", "mp3float":
            asbd.mFormatID = kAudioFormatMPEGLayer3
            asbd.mFramesPerPacket = 1152
        case "alac": asbd.mFormatID = kAudioFormatAppleLossless
        case "opus": asbd.mFormatID = kAudioFormatOpus
        case "flac": asbd.mFormatID = kAudioFormatFLAC
        case "pcm_mulaw": asbd.mFormatID = kAudioFormatULaw
        case "pcm_alaw": asbd.mFormatID = kAudioFormatALaw
        case "ac3": asbd.mFormatID = kAudioFormatAC3
        default: asbd.mFormatID = Self.fourCC(codec)
        }
        return asbd
    }

    /// Whether a four-character code is four printable characters.
    private static func isPrintable(_ code: FourCharCode) -> Bool { (0..<4).allSatisfy { (0x20...0x7E).contains((code >> ($0 * 8)) & 0xFF) } }

    /// A four-character code from the first four characters of a codec's name.
    private static func fourCC(_ name: String) -> FourCharCode {
        var code: FourCharCode = 0
        for byte in (name.utf8 + [32, 32, 32, 32]).prefix(4) { code = code << 8 | FourCharCode(byte) }
        return code
    }

    /// The transform that displays pictures of `size` turned `degrees` clockwise and, first, mirrored:
    /// QuickTime's display matrix, with the translation that keeps the picture in positive coordinates.
    package static func displayTransform(degrees: Int, mirrored: Bool, size: CGSize) -> CGAffineTransform {
        let (w, h) = (size.width, size.height)
        let rotation: CGAffineTransform =
            switch degrees {
            case 90: CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: h, ty: 0)
            case 180: CGAffineTransform(a: -1, b: 0, c: 0, d: -1, tx: w, ty: h)
            case 270: CGAffineTransform(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: w)
            default: .identity
            }
        guard mirrored else { return rotation }
        return CGAffineTransform(a: -1, b: 0, c: 0, d: 1, tx: w, ty: 0).concatenating(rotation)
    }
}
