import Foundation

/// A pool that recycles pixel buffers of one size and format.
///
/// A buffer returns to the pool when its last reference outside the pool goes, so a
/// client that holds buffers starves the pool; the frame path then drops frames rather
/// than allocating. Thread-safe.
public final class CVPixelBufferPool: @unchecked Sendable {
    /// The width of the pool's buffers.
    package let width: Int
    /// The height of the pool's buffers.
    package let height: Int
    /// The pixel format of the pool's buffers.
    package let pixelFormatType: OSType
    /// The number of buffers the pool keeps ready.
    package let minimumBufferCount: Int
    /// The most buffers the pool makes, or `nil` for no limit.
    package let maximumBufferCount: Int?
    private let alignment: Int
    private let prepare: (@Sendable (CVPixelBuffer) -> Void)?
    private let buffers: LockedValue<[CVPixelBuffer]>

    /// Creates a pool of buffers of one size and format; `prepare`, if given, is called on each buffer the pool makes.
    package init?(
        width: Int, height: Int, pixelFormatType: OSType, minimumBufferCount: Int = 0, maximumBufferCount: Int? = nil, alignment: Int = 64,
        prepare: (@Sendable (CVPixelBuffer) -> Void)? = nil
    ) {
        guard width > 0, height > 0, PixelFormatDescription.of(pixelFormatType) != nil else { return nil }
        self.width = width
        self.height = height
        self.pixelFormatType = pixelFormatType
        self.minimumBufferCount = minimumBufferCount
        self.maximumBufferCount = maximumBufferCount
        self.alignment = alignment
        self.prepare = prepare
        var initial: [CVPixelBuffer] = []
        initial.reserveCapacity(max(minimumBufferCount, maximumBufferCount ?? 0))
        for _ in 0..<minimumBufferCount {
            guard let buffer = CVPixelBuffer(width: width, height: height, pixelFormatType: pixelFormatType, alignment: alignment) else { return nil }
            prepare?(buffer)
            initial.append(buffer)
        }
        self.buffers = LockedValue(initial)
    }

    /// A pool of exactly `given` (buffers of one size and format, such as ones over memory a
    /// device writes into), which it never adds to; nil when there are none.
    package init?(buffers given: [CVPixelBuffer]) {
        guard let first = given.first else { return nil }
        width = first.width
        height = first.height
        pixelFormatType = first.pixelFormatType
        minimumBufferCount = given.count
        maximumBufferCount = given.count
        alignment = 64
        prepare = nil
        buffers = LockedValue(given)
    }

    /// Returns a free buffer, making one if the limit allows, or `nil` when every buffer is in use.
    package func dequeue(threshold: Int? = nil) -> CVPixelBuffer? {
        buffers.withLock { buffers in
            for index in buffers.indices where isOnlyReferencedByPool(&buffers[index]) {
                return buffers[index]
            }
            let limit = [threshold, maximumBufferCount].compactMap { $0 }.min()
            if let limit, buffers.count >= limit { return nil }
            guard let buffer = CVPixelBuffer(width: width, height: height, pixelFormatType: pixelFormatType, alignment: alignment) else { return nil }
            prepare?(buffer)
            buffers.append(buffer)
            return buffer
        }
    }

    /// The number of the pool's buffers that clients hold now.
    package var buffersInUse: Int {
        buffers.withLock { buffers in
            var count = 0
            for index in buffers.indices where !isKnownUniquelyReferenced(&buffers[index]) { count += 1 }
            return count
        }
    }

    /// The number of buffers the pool has made.
    package var bufferCount: Int { buffers.withLock { $0.count } }

    /// A pool of exactly `count` video frames, made at once and tagged with video's colour
    /// convention for their size until whoever fills them says otherwise.
    package static func videoFrames(width: Int, height: Int, pixelFormatType: OSType, count: Int) -> CVPixelBufferPool? {
        let colour = VideoColorimetry.standard(width: width, height: height)
        return CVPixelBufferPool(
            width: width, height: height, pixelFormatType: pixelFormatType, minimumBufferCount: count, maximumBufferCount: count,
            prepare: { colour.tag($0) })
    }
}

/// The pool attribute key for the number of buffers the pool keeps ready.
nonisolated(unsafe) public let kCVPixelBufferPoolMinimumBufferCountKey: CFString = "MinimumBufferCount"
/// The pool attribute key for how long an unused buffer stays in the pool.
nonisolated(unsafe) public let kCVPixelBufferPoolMaximumBufferAgeKey: CFString = "MaximumBufferAge"
/// The auxiliary attribute key that caps how many buffers the pool makes.
nonisolated(unsafe) public let kCVPixelBufferPoolAllocationThresholdKey: CFString = "AllocationThreshold"

/// Creates a pixel buffer pool from pool and pixel buffer attributes.
@discardableResult
public func CVPixelBufferPoolCreate(
    _ allocator: CFAllocator?, _ poolAttributes: CFDictionary?, _ pixelBufferAttributes: CFDictionary?,
    _ poolOut: UnsafeMutablePointer<CVPixelBufferPool?>
) -> CVReturn {
    guard let attributes = pixelBufferAttributes,
        let width = attributeInt(attributes[kCVPixelBufferWidthKey]),
        let height = attributeInt(attributes[kCVPixelBufferHeightKey]),
        let format = attributeOSType(attributes[kCVPixelBufferPixelFormatTypeKey])
    else { return kCVReturnInvalidPixelBufferAttributes }
    guard PixelFormatDescription.of(format) != nil else { return kCVReturnInvalidPixelFormat }
    let minimum = attributeInt(poolAttributes?[kCVPixelBufferPoolMinimumBufferCountKey]) ?? 0
    let alignment = attributeInt(attributes[kCVPixelBufferBytesPerRowAlignmentKey]) ?? 64
    guard let pool = CVPixelBufferPool(width: width, height: height, pixelFormatType: format, minimumBufferCount: minimum, alignment: alignment) else {
        return kCVReturnInvalidSize
    }
    poolOut.pointee = pool
    return kCVReturnSuccess
}

/// Takes a pixel buffer from the pool, making one if none is free.
@discardableResult
public func CVPixelBufferPoolCreatePixelBuffer(
    _ allocator: CFAllocator?, _ pixelBufferPool: CVPixelBufferPool,
    _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>
) -> CVReturn {
    CVPixelBufferPoolCreatePixelBufferWithAuxAttributes(allocator, pixelBufferPool, nil, pixelBufferOut)
}

/// Takes a pixel buffer from the pool, honouring an allocation threshold among the auxiliary attributes.
@discardableResult
public func CVPixelBufferPoolCreatePixelBufferWithAuxAttributes(
    _ allocator: CFAllocator?, _ pixelBufferPool: CVPixelBufferPool,
    _ auxAttributes: CFDictionary?,
    _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>
) -> CVReturn {
    let threshold = attributeInt(auxAttributes?[kCVPixelBufferPoolAllocationThresholdKey])
    guard let buffer = pixelBufferPool.dequeue(threshold: threshold) else {
        pixelBufferOut.pointee = nil
        return threshold != nil ? kCVReturnWouldExceedAllocationThreshold : kCVReturnAllocationFailed
    }
    pixelBufferOut.pointee = buffer
    return kCVReturnSuccess
}

/// Returns the attributes of the pool's pixel buffers.
public func CVPixelBufferPoolGetPixelBufferAttributes(_ pool: CVPixelBufferPool) -> CFDictionary? {
    [
        kCVPixelBufferWidthKey: pool.width, kCVPixelBufferHeightKey: pool.height,
        kCVPixelBufferPixelFormatTypeKey: pool.pixelFormatType,
    ]
}
