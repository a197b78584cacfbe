import Foundation

/// A four-character code naming a kind of media.
public typealias CMMediaType = FourCharCode
/// A four-character code naming a video codec or pixel format.
public typealias CMVideoCodecType = FourCharCode
/// A four-character code naming a pixel format, as a format description's subtype.
public typealias CMPixelFormatType = FourCharCode

/// Video: 'vide'.
public let kCMMediaType_Video: CMMediaType = 0x7669_6465
/// Audio: 'soun'.
public let kCMMediaType_Audio: CMMediaType = 0x736F_756E
/// Muxed audio and video: 'muxx'.
public let kCMMediaType_Muxed: CMMediaType = 0x6D75_7878
/// Text: 'text'.
public let kCMMediaType_Text: CMMediaType = 0x7465_7874
/// Timed metadata: 'meta'.
public let kCMMediaType_Metadata: CMMediaType = 0x6D65_7461
/// A timed metadata format: a `kCMMediaType_Metadata` format description's subtype.
public typealias CMMetadataFormatType = FourCharCode
/// ID3 tags, as MPEG-TS and HLS streams carry them: 'id3 '.
public let kCMMetadataFormatType_ID3: CMMetadataFormatType = 0x6964_3320
/// SHOUTcast (ICY) metadata: 'icy '.
public let kCMMetadataFormatType_ICY: CMMetadataFormatType = 0x6963_7920
/// Boxed QuickTime metadata: 'mebx'.
public let kCMMetadataFormatType_Boxed: CMMetadataFormatType = 0x6D65_6278
/// MPEG-DASH event messages: 'emsg'.
public let kCMMetadataFormatType_EMSG: CMMetadataFormatType = 0x656D_7367
/// H.264: 'avc1'.
public let kCMVideoCodecType_H264: CMVideoCodecType = 0x6176_6331
/// HEVC: 'hvc1'.
public let kCMVideoCodecType_HEVC: CMVideoCodecType = 0x6876_6331
/// JPEG: 'jpeg'.
public let kCMVideoCodecType_JPEG: CMVideoCodecType = 0x6A70_6567
/// Motion JPEG: 'dmb1'.
public let kCMVideoCodecType_JPEG_OpenDML: CMVideoCodecType = 0x646D_6231

/// The width and height of video, in pixels.
public struct CMVideoDimensions: Sendable, Hashable {
    /// The width in pixels.
    public var width: Int32
    /// The height in pixels.
    public var height: Int32
    /// Creates dimensions.
    public init(width: Int32, height: Int32) {
        self.width = width
        self.height = height
    }

    /// Creates zero dimensions, as every imported C structure can be.
    public init() { self.init(width: 0, height: 0) }
}

/// A description of a media format: its kind, subtype and the facts needed to read its samples.
public final class CMFormatDescription: @unchecked Sendable, Hashable, CustomStringConvertible {
    /// A kind of media.
    public struct MediaType: RawRepresentable, Sendable, Hashable {
        /// The four-character code.
        public let rawValue: FourCharCode
        /// Creates a media type from its code.
        public init(rawValue: FourCharCode) { self.rawValue = rawValue }
        /// Video.
        public static let video = MediaType(rawValue: kCMMediaType_Video)
        /// Audio.
        public static let audio = MediaType(rawValue: kCMMediaType_Audio)
        /// Muxed audio and video.
        public static let muxed = MediaType(rawValue: kCMMediaType_Muxed)
        /// Timed metadata.
        public static let metadata = MediaType(rawValue: kCMMediaType_Metadata)
        /// Text.
        public static let text = MediaType(rawValue: kCMMediaType_Text)
    }

    /// A media subtype: a codec or a pixel or audio format.
    public struct MediaSubType: RawRepresentable, Sendable, Hashable {
        /// The four-character code.
        public let rawValue: FourCharCode
        /// Creates a media subtype from its code.
        public init(rawValue: FourCharCode) { self.rawValue = rawValue }
        /// H.264.
        public static let h264 = MediaSubType(rawValue: kCMVideoCodecType_H264)
        /// HEVC.
        public static let hevc = MediaSubType(rawValue: kCMVideoCodecType_HEVC)
        /// JPEG.
        public static let jpeg = MediaSubType(rawValue: kCMVideoCodecType_JPEG)
        /// Linear PCM.
        public static let linearPCM = MediaSubType(rawValue: kAudioFormatLinearPCM)
        /// MPEG-4 AAC.
        public static let mpeg4AAC = MediaSubType(rawValue: kAudioFormatMPEG4AAC)
    }

    /// The kind of media, as a four-character code.
    package let mediaTypeCode: CMMediaType
    /// The subtype, as a four-character code.
    package let mediaSubTypeCode: FourCharCode
    /// The video dimensions, for video.
    package let videoDimensions: CMVideoDimensions
    /// The stream description, for audio; at a stable address.
    private let streamDescription: UnsafeMutablePointer<AudioStreamBasicDescription>?
    /// Codec configuration boxes, such as `avcC` for H.264, by box type.
    package let extensionAtoms: [String: Data]
    /// The audio codec's magic cookie, such as an AAC AudioSpecificConfig.
    package let magicCookie: Data?
    /// The video's pixel aspect ratio and clean aperture, for video.
    package let imageGeometry: ImageGeometry
    /// The H.264 or HEVC parameter sets read out of the configuration box, once asked for.
    let parameterSetCache = LockedValue<ParameterSetStorage?>(nil)

    /// Creates a video format description.
    package init(
        video codecType: CMVideoCodecType, width: Int32, height: Int32, extensionAtoms: [String: Data] = [:], geometry: ImageGeometry = ImageGeometry()
    ) {
        self.mediaTypeCode = kCMMediaType_Video
        self.mediaSubTypeCode = codecType
        self.videoDimensions = CMVideoDimensions(width: width, height: height)
        self.streamDescription = nil
        self.extensionAtoms = extensionAtoms
        self.magicCookie = nil
        self.imageGeometry = geometry
    }

    /// Creates a timed metadata format description, such as `kCMMetadataFormatType_ID3`'s.
    package init(metadata formatType: CMMetadataFormatType) {
        self.mediaTypeCode = kCMMediaType_Metadata
        self.mediaSubTypeCode = formatType
        self.videoDimensions = CMVideoDimensions(width: 0, height: 0)
        self.streamDescription = nil
        self.extensionAtoms = [:]
        self.magicCookie = nil
        self.imageGeometry = ImageGeometry()
    }

    /// Creates an audio format description.
    package init(audio asbd: AudioStreamBasicDescription, magicCookie: Data? = nil) {
        self.mediaTypeCode = kCMMediaType_Audio
        self.mediaSubTypeCode = asbd.mFormatID
        self.videoDimensions = CMVideoDimensions(width: 0, height: 0)
        self.extensionAtoms = [:]
        self.magicCookie = magicCookie
        self.imageGeometry = ImageGeometry()
        let pointer = UnsafeMutablePointer<AudioStreamBasicDescription>.allocate(capacity: 1)
        pointer.initialize(to: asbd)
        self.streamDescription = pointer
    }

    deinit {
        streamDescription?.deallocate()
        cookieStorage?.deallocate()
    }

    /// The magic cookie at a stable address.
    private lazy var cookieStorage: UnsafeMutableRawPointer? = {
        guard let magicCookie, !magicCookie.isEmpty else { return nil }
        let pointer = UnsafeMutableRawPointer.allocate(byteCount: magicCookie.count, alignment: 8)
        magicCookie.copyBytes(to: pointer.assumingMemoryBound(to: UInt8.self), count: magicCookie.count)
        return pointer
    }()

    package var magicCookieBytes: UnsafeRawPointer? { cookieStorage.map { UnsafeRawPointer($0) } }

    /// The kind of media.
    public var mediaType: MediaType { MediaType(rawValue: mediaTypeCode) }
    /// The media subtype.
    public var mediaSubType: MediaSubType { MediaSubType(rawValue: mediaSubTypeCode) }
    /// The video dimensions; zero for other media.
    public var dimensions: CMVideoDimensions { videoDimensions }
    /// The audio stream description; `nil` for other media.
    public var audioStreamBasicDescription: AudioStreamBasicDescription? { streamDescription?.pointee }

    package var streamDescriptionPointer: UnsafePointer<AudioStreamBasicDescription>? { streamDescription.map { UnsafePointer($0) } }

    /// Whether two descriptions describe the same format.
    public static func == (lhs: CMFormatDescription, rhs: CMFormatDescription) -> Bool {
        lhs.mediaTypeCode == rhs.mediaTypeCode && lhs.mediaSubTypeCode == rhs.mediaSubTypeCode
            && lhs.videoDimensions == rhs.videoDimensions && lhs.audioStreamBasicDescription == rhs.audioStreamBasicDescription
            && lhs.imageGeometry == rhs.imageGeometry
    }

    /// Hashes the format's kind, subtype and dimensions.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(mediaTypeCode)
        hasher.combine(mediaSubTypeCode)
        hasher.combine(videoDimensions)
    }

    /// A description such as `vide/420v 1280x720`.
    public var description: String {
        if let asbd = audioStreamBasicDescription {
            return
                "\(mediaTypeCode.fourCharacterString)/\(mediaSubTypeCode.fourCharacterString) \(Int(asbd.mSampleRate)) Hz \(asbd.mChannelsPerFrame) ch \(asbd.mBitsPerChannel)-bit"
        }
        return "\(mediaTypeCode.fourCharacterString)/\(mediaSubTypeCode.fourCharacterString) \(videoDimensions.width)x\(videoDimensions.height)"
    }
}

/// A video format description.
public typealias CMVideoFormatDescription = CMFormatDescription
/// An audio format description.
public typealias CMAudioFormatDescription = CMFormatDescription
/// A format description of timed metadata.
public typealias CMMetadataFormatDescription = CMFormatDescription

/// Returns the kind of media a format describes.
public func CMFormatDescriptionGetMediaType(_ desc: CMFormatDescription) -> CMMediaType { desc.mediaTypeCode }
/// Returns the subtype of a format: a codec or a pixel or audio format.
public func CMFormatDescriptionGetMediaSubType(_ desc: CMFormatDescription) -> FourCharCode { desc.mediaSubTypeCode }
/// Returns the dimensions of a video format.
public func CMVideoFormatDescriptionGetDimensions(_ videoDesc: CMVideoFormatDescription) -> CMVideoDimensions { videoDesc.videoDimensions }

/// Returns the dimensions of video as it is presented: its clean aperture if asked for, scaled
/// to square pixels by its pixel aspect ratio if asked for.
public func CMVideoFormatDescriptionGetPresentationDimensions(
    _ videoDesc: CMVideoFormatDescription, usePixelAspectRatio: Bool,
    useCleanAperture: Bool
) -> CGSize {
    videoDesc.presentationDimensions(usePixelAspectRatio: usePixelAspectRatio, useCleanAperture: useCleanAperture)
}

/// Returns the rectangle of video that its clean aperture shows, in encoded pixels, from the top
/// left or (as Core Graphics counts) the bottom left; the whole picture when it has none.
public func CMVideoFormatDescriptionGetCleanAperture(_ videoDesc: CMVideoFormatDescription, originIsAtTopLeft: Bool) -> CGRect {
    let size = videoDesc.videoDimensions
    var rect = videoDesc.imageGeometry.cleanRect(width: Int(size.width), height: Int(size.height))
    if !originIsAtTopLeft { rect.origin.y = CGFloat(size.height) - rect.maxY }
    return rect
}

extension CMFormatDescription {
    /// The dimensions of video as it is presented: its clean aperture if asked for, scaled to
    /// square pixels by its pixel aspect ratio if asked for.
    public func presentationDimensions(usePixelAspectRatio: Bool = true, useCleanAperture: Bool = true) -> CGSize {
        imageGeometry.presentationSize(
            width: Int(videoDimensions.width), height: Int(videoDimensions.height), usePixelAspectRatio: usePixelAspectRatio,
            useCleanAperture: useCleanAperture)
    }
}
/// Returns the stream description of an audio format.
public func CMAudioFormatDescriptionGetStreamBasicDescription(_ desc: CMAudioFormatDescription) -> UnsafePointer<AudioStreamBasicDescription>? {
    desc.streamDescriptionPointer
}

/// Creates a video format description for a codec and size.
@discardableResult
public func CMVideoFormatDescriptionCreate(
    allocator: CFAllocator?, codecType: CMVideoCodecType, width: Int32, height: Int32,
    extensions: CFDictionary?, formatDescriptionOut: UnsafeMutablePointer<CMVideoFormatDescription?>
) -> OSStatus {
    guard width > 0, height > 0 else { return kCMFormatDescriptionError_InvalidParameter }
    var atoms: [String: Data] = [:]
    if let boxes = extensions?[kCMFormatDescriptionExtension_SampleDescriptionExtensionAtoms] as? [String: Any] {
        for (type, value) in boxes {
            if let data = Data(bytesOf: value) { atoms[type] = data }
        }
    }
    let geometry = ImageGeometry((extensions as? [String: Any]) ?? [:])
    formatDescriptionOut.pointee = CMFormatDescription(video: codecType, width: width, height: height, extensionAtoms: atoms, geometry: geometry)
    return noErr
}

/// Creates a video format description that matches an image buffer.
@discardableResult
public func CMVideoFormatDescriptionCreateForImageBuffer(
    allocator: CFAllocator?, imageBuffer: CVImageBuffer,
    formatDescriptionOut: UnsafeMutablePointer<CMVideoFormatDescription?>
) -> OSStatus {
    formatDescriptionOut.pointee = CMFormatDescription(
        video: imageBuffer.pixelFormatType, width: Int32(imageBuffer.width), height: Int32(imageBuffer.height), geometry: imageBuffer.imageGeometry)
    return noErr
}

/// Whether a video format description matches an image buffer's size and pixel format.
public func CMVideoFormatDescriptionMatchesImageBuffer(_ videoDesc: CMVideoFormatDescription, imageBuffer: CVImageBuffer) -> Bool {
    videoDesc.mediaTypeCode == kCMMediaType_Video && videoDesc.mediaSubTypeCode == imageBuffer.pixelFormatType
        && Int(videoDesc.videoDimensions.width) == imageBuffer.width && Int(videoDesc.videoDimensions.height) == imageBuffer.height
}

/// Creates an audio format description from a stream description.
@discardableResult
public func CMAudioFormatDescriptionCreate(
    allocator: CFAllocator?, asbd: UnsafePointer<AudioStreamBasicDescription>, layoutSize: Int,
    layout: UnsafePointer<AudioChannelLayout>?, magicCookieSize: Int, magicCookie: UnsafeRawPointer?,
    extensions: CFDictionary?, formatDescriptionOut: UnsafeMutablePointer<CMAudioFormatDescription?>
) -> OSStatus {
    guard asbd.pointee.mSampleRate > 0, asbd.pointee.mChannelsPerFrame > 0 else { return kCMFormatDescriptionError_InvalidParameter }
    let cookie = magicCookie.map { Data(bytes: $0, count: magicCookieSize) }
    formatDescriptionOut.pointee = CMFormatDescription(audio: asbd.pointee, magicCookie: cookie)
    return noErr
}

/// A format description call was given a bad argument.
public let kCMFormatDescriptionError_InvalidParameter: OSStatus = -12710

/// The extension key for codec configuration boxes, a dictionary from box type to data.
nonisolated(unsafe) public let kCMFormatDescriptionExtension_SampleDescriptionExtensionAtoms: CFString = "SampleDescriptionExtensionAtoms"

/// The extension key for the pixel aspect ratio, a dictionary of horizontal and vertical spacing.
nonisolated(unsafe) public let kCMFormatDescriptionExtension_PixelAspectRatio: CFString = kCVImageBufferPixelAspectRatioKey
/// The horizontal spacing of the pixel aspect ratio.
nonisolated(unsafe) public let kCMFormatDescriptionKey_PixelAspectRatioHorizontalSpacing: CFString = kCVImageBufferPixelAspectRatioHorizontalSpacingKey
/// The vertical spacing of the pixel aspect ratio.
nonisolated(unsafe) public let kCMFormatDescriptionKey_PixelAspectRatioVerticalSpacing: CFString = kCVImageBufferPixelAspectRatioVerticalSpacingKey
/// The extension key for the clean aperture, a dictionary of its width, height and offsets.
nonisolated(unsafe) public let kCMFormatDescriptionExtension_CleanAperture: CFString = kCVImageBufferCleanApertureKey
/// The clean aperture's width.
nonisolated(unsafe) public let kCMFormatDescriptionKey_CleanApertureWidth: CFString = kCVImageBufferCleanApertureWidthKey
/// The clean aperture's height.
nonisolated(unsafe) public let kCMFormatDescriptionKey_CleanApertureHeight: CFString = kCVImageBufferCleanApertureHeightKey
/// How far right of the picture's centre the clean aperture's centre is.
nonisolated(unsafe) public let kCMFormatDescriptionKey_CleanApertureHorizontalOffset: CFString = kCVImageBufferCleanApertureHorizontalOffsetKey
/// How far down from the picture's centre the clean aperture's centre is.
nonisolated(unsafe) public let kCMFormatDescriptionKey_CleanApertureVerticalOffset: CFString = kCVImageBufferCleanApertureVerticalOffsetKey

/// Returns a format description's extensions: its codec configuration boxes, pixel aspect ratio and clean aperture.
public func CMFormatDescriptionGetExtensions(_ desc: CMFormatDescription) -> CFDictionary? {
    var extensions = desc.imageGeometry.dictionary
    if !desc.extensionAtoms.isEmpty { extensions[kCMFormatDescriptionExtension_SampleDescriptionExtensionAtoms as String] = desc.extensionAtoms }
    return extensions.isEmpty ? nil : extensions as NSDictionary
}

/// Returns one of a format description's extensions, or nil when it has none of that key.
public func CMFormatDescriptionGetExtension(_ desc: CMFormatDescription, extensionKey: CFString) -> CFPropertyList? {
    guard let extensions = CMFormatDescriptionGetExtensions(desc) as? [String: Any], let value = extensions[extensionKey as String] else { return nil }
    return value as AnyObject
}

/// Returns an audio format description's magic cookie and its size.
public func CMAudioFormatDescriptionGetMagicCookie(_ desc: CMAudioFormatDescription, sizeOut: UnsafeMutablePointer<Int>?) -> UnsafeRawPointer? {
    guard let cookie = desc.magicCookie else { sizeOut?.pointee = 0; return nil }
    sizeOut?.pointee = cookie.count
    return desc.magicCookieBytes
}

/// The base data type of metadata held as UTF-8 text.
nonisolated(unsafe) public let kCMMetadataBaseDataType_UTF8: CFString = "com.apple.metadata.datatype.UTF-8"
/// The base data type of metadata held as bytes with no further type.
nonisolated(unsafe) public let kCMMetadataBaseDataType_RawData: CFString = "com.apple.metadata.datatype.raw-data"
