import CMediaCodecs

/// One compressed packet of a stream, valid only inside the call that hands it over.
package struct MoviePacket {
    /// FFmpeg's description of the packet.
    let raw: cmc_packet

    init(_ raw: cmc_packet) { self.raw = raw }

    /// The presentation time, in the stream's time base (`Int64.min` when unknown).
    package var pts: Int64 { raw.pts }
    /// The decode time, in the stream's time base (`Int64.min` when unknown).
    package var dts: Int64 { raw.dts }
    /// How long the packet lasts, in the stream's time base.
    package var duration: Int64 { raw.duration }
    /// Whether decoding can start at this packet.
    package var isKeyframe: Bool { raw.keyframe != 0 }
    /// How many decoded samples at the packet's start are not to be played (an encoder's priming).
    package var skipSamples: Int { Int(raw.skip_samples) }
    /// How many decoded samples at the packet's end are not to be played (padding of the last packet).
    package var discardPadding: Int { Int(raw.discard_padding) }
    /// The packet's bytes.
    package var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: raw.data, count: Int(raw.size)) }
}
