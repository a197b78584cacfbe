import CV4L2
import CoreMedia
import CoreVideo
import Foundation
import FrameProcessing

/// One configured V4L2 stream: the open node, its mapped buffers, and the frames it yields.
///
/// Thread ownership: created on the caller's thread, then owned by the streaming thread.
final class V4L2Stream: @unchecked Sendable {
    enum Next {
        case frame(CMSampleBuffer)
        case dropped(CMTime, FrameDropReason)
        case idle
        case failed(V4L2Error)
    }

    /// The mapped buffers; unmapped when the stream and every frame a client still holds are gone.
    final class Mapping: @unchecked Sendable {
        var regions: [(UnsafeMutableRawPointer, Int)] = []
        let node: V4L2Node
        init(node: V4L2Node) { self.node = node }
        deinit { for (base, length) in regions { munmap(base, length) } }
    }

    let node: V4L2Node
    let mapping: Mapping
    let configuration: VideoStreamConfiguration
    let native: V4L2PixelFormat
    let width: Int, height: Int, bytesPerLine: Int
    /// The colour the driver says its frames are in.
    let colorimetry: VideoColorimetry
    let frameDuration: CMTime
    private var wrappers: [CVPixelBuffer] = []
    private var shells: [CMSampleBuffer] = []
    private var outstanding: [Bool] = []
    private var streaming = false
    private var lastSequence: UInt32?
    private var pending: CMSampleBuffer?
    private let formatDescription: CMFormatDescription
    private var pool: VideoFramePool?
    private let converter = PixelFormatConverter()
    private let decoder = MJPEGDecoder()
    private let digitalZoom = DigitalZoom()
    static let bufferCount: UInt32 = 4

    /// Sets the format and rate, and maps the buffers; errors such as EBUSY come from here.
    init(path: String, configuration: VideoStreamConfiguration, formats: [CaptureVideoFormat]) throws(V4L2Error) {
        let candidates = formats.filter { $0.width == configuration.width && $0.height == configuration.height }
        guard
            let chosen = candidates.first(where: { $0.sourceCode == configuration.sourceCode })
                ?? candidates.first(where: { $0.pixelFormat == configuration.pixelFormat }) ?? candidates.first,
            let native = V4L2PixelFormat(fourcc: chosen.sourceCode)
        else {
            throw V4L2Error(errno: EINVAL, call: "no \(configuration.width)x\(configuration.height) format")
        }
        node = try V4L2Node(path: path)
        mapping = Mapping(node: node)
        self.configuration = configuration
        self.native = native
        var format = v4l2_format()
        format.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        format.fmt.pix.width = UInt32(configuration.width)
        format.fmt.pix.height = UInt32(configuration.height)
        format.fmt.pix.pixelformat = chosen.sourceCode
        format.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        try node.ioctl(cv4l2_s_fmt(), &format, "VIDIOC_S_FMT")
        width = Int(format.fmt.pix.width)
        height = Int(format.fmt.pix.height)
        bytesPerLine = Int(format.fmt.pix.bytesperline)
        colorimetry = .v4l2(colorspace: format.fmt.pix.colorspace, ycbcrEncoding: format.fmt.pix.ycbcr_enc, width: width, height: height)
        var parm = v4l2_streamparm()
        parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        if let (value, timescale) = configuration.frameDurationFraction, value > 0, timescale > 0 {
            parm.parm.capture.timeperframe = v4l2_fract(numerator: UInt32(value), denominator: UInt32(timescale))
        } else {
            parm.parm.capture.timeperframe = v4l2_fract(numerator: UInt32(max(1, configuration.frameDurationNanoseconds / 1000)), denominator: 1_000_000)
        }
        try? node.ioctl(cv4l2_s_parm(), &parm, "VIDIOC_S_PARM")
        let fraction = parm.parm.capture.timeperframe
        frameDuration =
            fraction.denominator > 0
            ? CMTime(value: CMTimeValue(fraction.numerator), timescale: Int32(fraction.denominator))
            : CMTime(value: configuration.frameDurationNanoseconds, timescale: 1_000_000_000)
        formatDescription = CMFormatDescription(video: native.delivered, width: Int32(width), height: Int32(height))
        var request = v4l2_requestbuffers()
        request.count = Self.bufferCount
        request.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try node.ioctl(cv4l2_reqbufs(), &request, "VIDIOC_REQBUFS")
        for index in 0..<request.count {
            var buffer = v4l2_buffer()
            buffer.index = index
            buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
            buffer.memory = V4L2_MEMORY_MMAP.rawValue
            try node.ioctl(cv4l2_querybuf(), &buffer, "VIDIOC_QUERYBUF")
            guard let base = mmap(nil, Int(buffer.length), PROT_READ | PROT_WRITE, MAP_SHARED, node.fd, off_t(buffer.m.offset)), base != MAP_FAILED else {
                throw V4L2Error(errno: errno, call: "mmap")
            }
            mapping.regions.append((base, Int(buffer.length)))
            wrappers.append(wrap(base, length: Int(buffer.length)))
            shells.append(CMSampleBuffer())
            outstanding.append(false)
        }
    }

    /// A pixel buffer over a driver buffer, keeping the mapping alive while a client holds it.
    private func wrap(_ base: UnsafeMutableRawPointer, length: Int) -> CVPixelBuffer {
        let keep = mapping
        var planes = [CVPixelBuffer.Plane(baseAddress: base, bytesPerRow: bytesPerLine, width: width, height: height)]
        if native.delivered == kCVPixelFormatType_420YpCbCr8BiPlanarVideoRange || native.delivered == kCVPixelFormatType_420YpCbCr10BiPlanarVideoRange {
            planes.append(.init(baseAddress: base + bytesPerLine * height, bytesPerRow: bytesPerLine, width: (width + 1) / 2, height: (height + 1) / 2))
        }
        let buffer = CVPixelBuffer(
            width: width, height: height, pixelFormatType: native.delivered, planes: planes, dataSize: length,
            release: { _ = keep })
        colorimetry.tag(buffer)
        return buffer
    }

    /// Queues every buffer and starts streaming.
    func startStreaming() throws(V4L2Error) {
        for index in wrappers.indices { try queue(index) }
        var type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        try node.ioctl(cv4l2_streamon(), &type, "VIDIOC_STREAMON")
        streaming = true
    }

    private func queue(_ index: Int) throws(V4L2Error) {
        var buffer = v4l2_buffer()
        buffer.index = UInt32(index)
        buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        buffer.memory = V4L2_MEMORY_MMAP.rawValue
        try node.ioctl(cv4l2_qbuf(), &buffer, "VIDIOC_QBUF")
        outstanding[index] = false
    }

    /// Gives back to the driver every buffer clients have let go of.
    private func requeueReleased() throws(V4L2Error) {
        for index in shells.indices where outstanding[index] && isOnlyReferencedByPool(&shells[index]) {
            shells[index].imageBufferStorage = nil
            if isOnlyReferencedByPool(&wrappers[index]) { try queue(index) }
        }
    }

    /// Waits for the next frame and returns it, the newest when several are ready, zoomed by `zoom`.
    func next(zoom: Double = 1) -> Next {
        if let pending {
            self.pending = nil
            return .frame(pending)
        }
        do throws(V4L2Error) {
            try requeueReleased()
            var poller = pollfd(fd: node.fd, events: Int16(POLLIN), revents: 0)
            // Frames clients have let go of go back to the driver at the next wake-up, which the
            // next frame brings; only when the driver has no buffer left to fill (clients hold
            // them all) does the wait wake every 2 ms to notice one coming back.
            let starved = !outstanding.contains(false)
            let ready = poll(&poller, 1, starved ? 2 : 100)
            if ready == 0 { return .idle }
            if ready < 0 { return errno == EINTR ? .idle : .failed(V4L2Error(errno: errno, call: "poll")) }
            // Drain what is ready and keep only the newest: no stale-frame lag.
            var newest: v4l2_buffer?
            var corrupt: CMTime?
            while true {
                var buffer = v4l2_buffer()
                buffer.type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
                buffer.memory = V4L2_MEMORY_MMAP.rawValue
                let result = withUnsafeMutablePointer(to: &buffer) { cv4l2_ioctl(node.fd, cv4l2_dqbuf(), $0) }
                if result == -EAGAIN { break }
                if result < 0 { throw V4L2Error(errno: -result, call: "VIDIOC_DQBUF") }
                outstanding[Int(buffer.index)] = true
                if buffer.flags & UInt32(V4L2_BUF_FLAG_ERROR) != 0 {
                    corrupt = timestamp(of: buffer)
                    try queue(Int(buffer.index))
                    continue
                }
                if let older = newest { try queue(Int(older.index)) }
                newest = buffer
            }
            guard let buffer = newest else {
                if let corrupt { return .dropped(corrupt, .discontinuity) }
                return .idle
            }
            let skipped = lastSequence.map { buffer.sequence &- $0 &- 1 } ?? 0
            lastSequence = buffer.sequence
            let result = try deliver(buffer, zoom: zoom)
            if skipped > 0, skipped < 1000, case .frame(let sample) = result {
                // Frames the driver dropped, or that came too late to be the newest: report them first.
                pending = sample
                return .dropped(sample.presentationTimeStamp - frameDuration, .discontinuity)
            }
            return result
        } catch {
            return .failed(error)
        }
    }

    private func timestamp(of buffer: v4l2_buffer) -> CMTime {
        if buffer.flags & UInt32(V4L2_BUF_FLAG_TIMESTAMP_MASK) == UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC) {
            return CMClock.hostTime(nanoseconds: Int64(buffer.timestamp.tv_sec) * 1_000_000_000 + Int64(buffer.timestamp.tv_usec) * 1000)
        }
        return CMClock.hostTime(nanoseconds: CMClock.hostTimeNanoseconds())
    }

    private func deliver(_ buffer: v4l2_buffer, zoom: Double) throws(V4L2Error) -> Next {
        let index = Int(buffer.index)
        let time = timestamp(of: buffer)
        let wanted = configuration.pixelFormat
        let zoomed = zoom > 1.001
        if !native.isCompressed, wanted == native.delivered, !zoomed {
            // The client's format is the driver's: hand the driver's buffer over, no copy.
            let shell = shells[index]
            shell.reset()
            shell.imageBufferStorage = wrappers[index]
            shell.formatDescriptionStorage = formatDescription
            shell.timing = CMSampleTimingInfo(duration: frameDuration, presentationTimeStamp: time, decodeTimeStamp: .invalid)
            shell.sampleCount = 1
            return .frame(shell)
        }
        if pool == nil { pool = VideoFramePool(width: width, height: height, pixelFormat: wanted, capacity: configuration.bufferCount) }
        guard let pool, let (target, sample) = pool.dequeue() else {
            try queue(index)
            return .dropped(time, .outOfBuffers)
        }
        var ok: Bool
        if native.isCompressed {
            ok = decoder.decode(
                mapping.regions[index].0.assumingMemoryBound(to: UInt8.self), count: Int(buffer.bytesused), into: target,
                zoom: zoom, with: digitalZoom)
        } else {
            ok = digitalZoom.render(wrappers[index], zoom: zoom, into: target)
        }
        try queue(index)
        guard ok else { return .dropped(time, .discontinuity) }
        pool.prepare(sample, pixelBuffer: target, presentationTime: time, duration: frameDuration)
        return .frame(sample)
    }

    /// Whether the device node still exists behind the open file.
    var deviceExists: Bool {
        var capability = v4l2_capability()
        return (try? node.ioctl(cv4l2_querycap(), &capability, "VIDIOC_QUERYCAP")) != nil
    }

    /// Stops streaming; the buffers stay mapped while clients hold frames.
    func close() {
        guard streaming else { return }
        streaming = false
        var type = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
        try? node.ioctl(cv4l2_streamoff(), &type, "VIDIOC_STREAMOFF")
    }
}
