/// The formats of linear PCM samples that audio buffers, files and converters commonly use.
public enum AVAudioCommonFormat: UInt, @unchecked Sendable {
    /// A format other than one of the common ones.
    case otherFormat = 0
    /// Native-endian 32-bit floats: the standard format.
    case pcmFormatFloat32 = 1
    /// Native-endian 64-bit floats.
    case pcmFormatFloat64 = 2
    /// Native-endian signed 16-bit integers.
    case pcmFormatInt16 = 3
    /// Native-endian signed 32-bit integers.
    case pcmFormatInt32 = 4
}

extension AVAudioCommonFormat {
    /// The bytes of one sample; 0 for other formats.
    var bytesPerSample: Int {
        switch self {
        case .pcmFormatFloat32, .pcmFormatInt32: 4
        case .pcmFormatFloat64: 8
        case .pcmFormatInt16: 2
        case .otherFormat: 0
        }
    }
}
