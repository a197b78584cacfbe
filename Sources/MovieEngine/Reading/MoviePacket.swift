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
    /// The packet's bytes.
    package var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: raw.data, count: Int(raw.size)) }
}
