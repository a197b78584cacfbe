import CaptureDevices
import FrameProcessing

/// One camera's stream, planned from the demands of the outputs connected to it: its size, the
/// pixel format it streams in, the buffers it keeps, and the conversions that give each connection
/// what its output asked for. A pure function of its inputs, so tables test it.
struct StreamPlan: Equatable {
    /// A width and height in pixels.
    struct Size: Hashable {
        var width: Int
        var height: Int
    }

    /// One conversion of the stream's frames, shared by every connection that asks for the same.
    struct Conversion: Equatable {
        var pixelFormat: OSType
        var orientation: PixelOrientation
        /// The size frames are scaled to first, or nil for the stream's.
        var size: Size?
        /// The frames the conversion keeps.
        var capacity: Int
    }

    /// A connection as the planner sees it: its output's demand and the orientation it asks for.
    struct Connection {
        var demand: OutputDemand
        var orientation: PixelOrientation
    }

    /// The stream's size.
    var size: Size
    /// The pixel format the device streams in: the one most connections take as it is.
    var pixelFormat: OSType
    /// The frames the device's pool keeps.
    var bufferCount: Int
    /// The conversions, in the order connections first asked for them.
    var conversions: [Conversion]
    /// For each connection, in order, the index of the conversion it takes, or -1 for the stream itself.
    var conversionIndices: [Int]

    /// The size the photo preset gives outputs other than the one taking stills, as Apple's does.
    static let photoPreviewSize = Size(width: 852, height: 640)
    /// The frames a device's pool keeps for outputs that hold frames only while they take them.
    static let baseBufferCount = 8
    /// The frames a conversion keeps for such outputs.
    static let baseConversionCapacity = 6

    /// Plans the stream of a camera whose active format is `format` in `nativePixelFormat`.
    ///
    /// With the photo preset, a camera streams its full size when an output takes stills from it
    /// and the others get a preview-sized copy; with no such output the stream itself is
    /// preview-sized. The pixel format is the one most connections want; the others, and those
    /// whose output rotates pixels, get a conversion. An output that holds frames for an encoder
    /// makes whatever feeds it keep that many more.
    static func video(format: Size, nativePixelFormat: OSType, photoPreset: Bool, connections: [Connection]) -> StreamPlan {
        let takesStills = connections.contains { $0.demand.fullSizeStills }
        let size = photoPreset && !takesStills ? photoPreviewSize : format
        let previewSize: Size? = photoPreset && size != photoPreviewSize ? photoPreviewSize : nil
        let wanted = connections.map { $0.demand.pixelFormat ?? nativePixelFormat }
        let primary = mostCommon(wanted) ?? nativePixelFormat
        var conversions: [Conversion] = []
        var indices: [Int] = []
        var streamHeldFrames = 0
        for (connection, pixelFormat) in zip(connections, wanted) {
            let demand = connection.demand
            let orientation = demand.orientation == .pixels ? connection.orientation : .identity
            let scaledSize = demand.fullSizeStills ? nil : previewSize
            guard pixelFormat != primary || !orientation.isIdentity || scaledSize != nil else {
                indices.append(-1)
                streamHeldFrames = max(streamHeldFrames, demand.heldFrames)
                continue
            }
            var index = conversions.firstIndex { $0.pixelFormat == pixelFormat && $0.orientation == orientation && $0.size == scaledSize }
            if index == nil {
                conversions.append(Conversion(pixelFormat: pixelFormat, orientation: orientation, size: scaledSize, capacity: baseConversionCapacity))
                index = conversions.count - 1
            }
            conversions[index!].capacity = max(conversions[index!].capacity, baseConversionCapacity + demand.heldFrames)
            indices.append(index!)
        }
        return StreamPlan(
            size: size, pixelFormat: primary, bufferCount: baseBufferCount + streamHeldFrames,
            conversions: conversions, conversionIndices: indices)
    }

    /// The value that occurs most often, the first of equals; nil for none.
    private static func mostCommon(_ formats: [OSType]) -> OSType? {
        var best: OSType?
        var bestCount = 0
        for format in formats {
            let count = formats.filter { $0 == format }.count
            if count > bestCount { best = format; bestCount = count }
        }
        return best
    }
}
