import Foundation
import Synchronization

/// An image buffer that holds pixels in main memory.
///
/// Thread ownership: the geometry is immutable; the pixels belong to whoever holds the
/// buffer, and a buffer taken from a pool returns to it when its last reference goes.
public final class CVPixelBuffer: @unchecked Sendable {
    /// One plane of pixel data.
    package struct Plane: @unchecked Sendable {
        /// The first byte of the plane.
        package var baseAddress: UnsafeMutableRawPointer
        /// Bytes from the start of one row to the start of the next.
        package var bytesPerRow: Int
        /// The plane's width in pixels.
        package var width: Int
        /// The plane's height in rows.
        package var height: Int

        /// Describes a plane.
        package init(baseAddress: UnsafeMutableRawPointer, bytesPerRow: Int, width: Int, height: Int) {
            self.baseAddress = baseAddress
            self.bytesPerRow = bytesPerRow
            self.width = width
            self.height = height
        }
    }

    /// The buffer's width in pixels.
    package let width: Int
    /// The buffer's height in pixels.
    package let height: Int
    /// The buffer's pixel format.
    package let pixelFormatType: OSType
    /// The buffer's planes; one for packed formats.
    package let planes: [Plane]
    /// The number of bytes the buffer's memory spans.
    package let dataSize: Int
    /// The buffer's attachments, such as its colour; use `CVBufferSetAttachment` and `CVBufferCopyAttachment`.
    @_spi(Plumbing) public let _attachmentStorage = CMAttachmentStorage()

    private let storage: UnsafeMutableRawPointer?
    private let release: (@Sendable () -> Void)?
    private let lockCount = Atomic<Int>(0)

    /// Allocates a buffer of `width` by `height` pixels in `pixelFormatType`, rows aligned to `alignment` bytes.
    package init?(width: Int, height: Int, pixelFormatType: OSType, alignment: Int = 64) {
        guard width > 0, height > 0, let layout = PixelFormatDescription.of(pixelFormatType) else { return nil }
        var planes: [Plane] = []
        var offsets: [(Int, Int, Int, Int)] = []  // offset, bytesPerRow, width, height
        var total = 0
        for plane in layout.planes {
            let planeWidth = (width + plane.horizontalSubsampling - 1) / plane.horizontalSubsampling
            let planeHeight = (height + plane.verticalSubsampling - 1) / plane.verticalSubsampling
            let groups = (planeWidth + plane.pixelsPerGroup - 1) / plane.pixelsPerGroup
            let bytesPerRow = (groups * plane.bytesPerGroup + alignment - 1) / alignment * alignment
            offsets.append((total, bytesPerRow, planeWidth, planeHeight))
            total += bytesPerRow * planeHeight
        }
        guard let memory = UnsafeMutableRawPointer.allocateAligned(byteCount: total, alignment: max(alignment, 64)) else { return nil }
        for (offset, bytesPerRow, planeWidth, planeHeight) in offsets {
            planes.append(Plane(baseAddress: memory + offset, bytesPerRow: bytesPerRow, width: planeWidth, height: planeHeight))
        }
        self.width = width
        self.height = height
        self.pixelFormatType = pixelFormatType
        self.planes = planes
        self.dataSize = total
        self.storage = memory
        self.release = nil
    }

    /// Wraps memory that someone else owns; `release` runs when the buffer goes.
    package init(width: Int, height: Int, pixelFormatType: OSType, planes: [Plane], dataSize: Int, release: (@Sendable () -> Void)?) {
        self.width = width
        self.height = height
        self.pixelFormatType = pixelFormatType
        self.planes = planes
        self.dataSize = dataSize
        self.storage = nil
        self.release = release
    }

    deinit {
        if let storage { free(storage) }
        release?()
    }

    /// Whether the base address is locked.
    package var isLocked: Bool { lockCount.load(ordering: .relaxed) > 0 }

    fileprivate func lock() { lockCount.add(1, ordering: .acquiring) }

    fileprivate func unlock() -> Bool {
        let (old, _) = lockCount.subtract(1, ordering: .releasing)
        if old <= 0 {
            lockCount.add(1, ordering: .relaxed)
            return false
        }
        return true
    }
}

extension UnsafeMutableRawPointer {
    /// Allocates `byteCount` bytes aligned to `alignment`, for `free` to release.
    package static func allocateAligned(byteCount: Int, alignment: Int) -> UnsafeMutableRawPointer? {
        var pointer: UnsafeMutableRawPointer?
        guard posix_memalign(&pointer, alignment, max(byteCount, 1)) == 0 else { return nil }
        return pointer
    }
}

/// A reference to an image buffer; on Linux every image buffer is a pixel buffer.
public typealias CVImageBuffer = CVPixelBuffer
/// A reference to a Core Video buffer.
public typealias CVBuffer = CVPixelBuffer

/// Flags that say how a pixel buffer's base address is locked.
public struct CVPixelBufferLockFlags: OptionSet, Sendable {
    /// The flags' raw value.
    public let rawValue: UInt64
    /// Creates flags from their raw value.
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// The caller only reads the pixels.
    public static let readOnly = CVPixelBufferLockFlags(rawValue: 1)
}

/// A callback that releases the bytes of a pixel buffer made with `CVPixelBufferCreateWithBytes`.
public typealias CVPixelBufferReleaseBytesCallback = @convention(c) (UnsafeMutableRawPointer?, UnsafeRawPointer?) -> Void

/// The attribute key for a pixel buffer's pixel format.
nonisolated(unsafe) public let kCVPixelBufferPixelFormatTypeKey: CFString = "PixelFormatType"
/// The attribute key for a pixel buffer's width.
nonisolated(unsafe) public let kCVPixelBufferWidthKey: CFString = "Width"
/// The attribute key for a pixel buffer's height.
nonisolated(unsafe) public let kCVPixelBufferHeightKey: CFString = "Height"
/// The attribute key for the alignment of a pixel buffer's rows.
nonisolated(unsafe) public let kCVPixelBufferBytesPerRowAlignmentKey: CFString = "BytesPerRowAlignment"
/// The attribute key for IOSurface properties; accepted and ignored on Linux.
nonisolated(unsafe) public let kCVPixelBufferIOSurfacePropertiesKey: CFString = "IOSurfaceProperties"
/// The attribute key for whether a pixel buffer can back a `CGImage`; every buffer here can.
nonisolated(unsafe) public let kCVPixelBufferCGImageCompatibilityKey: CFString = "CGImageCompatibility"
/// The attribute key for whether a bitmap context can draw into a pixel buffer; every 32-bit buffer here can.
nonisolated(unsafe) public let kCVPixelBufferCGBitmapContextCompatibilityKey: CFString = "CGBitmapContextCompatibility"
/// The attribute key for whether Metal can use a pixel buffer; accepted and ignored on Linux.
nonisolated(unsafe) public let kCVPixelBufferMetalCompatibilityKey: CFString = "MetalCompatibility"
/// The attribute key for whether OpenGL can use a pixel buffer; accepted and ignored on Linux.
nonisolated(unsafe) public let kCVPixelBufferOpenGLCompatibilityKey: CFString = "OpenGLCompatibility"
/// The attribute key for whether OpenGL ES can use a pixel buffer; accepted and ignored on Linux.
nonisolated(unsafe) public let kCVPixelBufferOpenGLESCompatibilityKey: CFString = "OpenGLESCompatibility"

/// Creates a pixel buffer of the given size and pixel format.
@discardableResult
public func CVPixelBufferCreate(
    _ allocator: CFAllocator?, _ width: Int, _ height: Int, _ pixelFormatType: OSType,
    _ pixelBufferAttributes: CFDictionary?, _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>
) -> CVReturn {
    guard width > 0, height > 0 else { return kCVReturnInvalidSize }
    guard PixelFormatDescription.of(pixelFormatType) != nil else { return kCVReturnInvalidPixelFormat }
    let alignment = attributeInt(pixelBufferAttributes?[kCVPixelBufferBytesPerRowAlignmentKey]) ?? 64
    guard let buffer = CVPixelBuffer(width: width, height: height, pixelFormatType: pixelFormatType, alignment: max(1, alignment)) else {
        return kCVReturnAllocationFailed
    }
    pixelBufferOut.pointee = buffer
    return kCVReturnSuccess
}

/// Creates a packed pixel buffer over memory the caller owns; the callback releases it.
@discardableResult
public func CVPixelBufferCreateWithBytes(
    _ allocator: CFAllocator?, _ width: Int, _ height: Int, _ pixelFormatType: OSType,
    _ baseAddress: UnsafeMutableRawPointer, _ bytesPerRow: Int,
    _ releaseCallback: CVPixelBufferReleaseBytesCallback?, _ releaseRefCon: UnsafeMutableRawPointer?,
    _ pixelBufferAttributes: CFDictionary?, _ pixelBufferOut: UnsafeMutablePointer<CVPixelBuffer?>
) -> CVReturn {
    guard let layout = PixelFormatDescription.of(pixelFormatType), layout.planes.count == 1 else { return kCVReturnInvalidPixelFormat }
    guard width > 0, height > 0, bytesPerRow >= (width + layout.planes[0].pixelsPerGroup - 1) / layout.planes[0].pixelsPerGroup * layout.planes[0].bytesPerGroup
    else {
        return kCVReturnInvalidSize
    }
    var release: (@Sendable () -> Void)?
    if let releaseCallback {
        let context = ReleaseContext(callback: releaseCallback, refCon: releaseRefCon, base: baseAddress)
        release = { context.run() }
    }
    pixelBufferOut.pointee = CVPixelBuffer(
        width: width, height: height, pixelFormatType: pixelFormatType,
        planes: [.init(baseAddress: baseAddress, bytesPerRow: bytesPerRow, width: width, height: height)],
        dataSize: bytesPerRow * height, release: release)
    return kCVReturnSuccess
}

/// Locks the base address of the pixel buffer so that the CPU can read or write it.
@discardableResult
public func CVPixelBufferLockBaseAddress(_ pixelBuffer: CVPixelBuffer, _ lockFlags: CVPixelBufferLockFlags) -> CVReturn {
    pixelBuffer.lock()
    return kCVReturnSuccess
}

/// Unlocks the base address of the pixel buffer.
@discardableResult
public func CVPixelBufferUnlockBaseAddress(_ pixelBuffer: CVPixelBuffer, _ unlockFlags: CVPixelBufferLockFlags) -> CVReturn {
    pixelBuffer.unlock() ? kCVReturnSuccess : kCVReturnError
}

/// Returns the base address of the buffer's first plane.
public func CVPixelBufferGetBaseAddress(_ pixelBuffer: CVPixelBuffer) -> UnsafeMutableRawPointer? {
    pixelBuffer.planes.first?.baseAddress
}

/// Returns the base address of the plane at the given index.
public func CVPixelBufferGetBaseAddressOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> UnsafeMutableRawPointer? {
    pixelBuffer.planes.indices.contains(planeIndex) ? pixelBuffer.planes[planeIndex].baseAddress : nil
}

/// Returns the number of bytes per row of the buffer's first plane.
public func CVPixelBufferGetBytesPerRow(_ pixelBuffer: CVPixelBuffer) -> Int {
    pixelBuffer.planes.first?.bytesPerRow ?? 0
}

/// Returns the number of bytes per row of the plane at the given index.
public func CVPixelBufferGetBytesPerRowOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    pixelBuffer.planes.indices.contains(planeIndex) ? pixelBuffer.planes[planeIndex].bytesPerRow : 0
}

/// Returns the width of the pixel buffer in pixels.
public func CVPixelBufferGetWidth(_ pixelBuffer: CVPixelBuffer) -> Int { pixelBuffer.width }

/// Returns the height of the pixel buffer in pixels.
public func CVPixelBufferGetHeight(_ pixelBuffer: CVPixelBuffer) -> Int { pixelBuffer.height }

/// Returns the width of the plane at the given index.
public func CVPixelBufferGetWidthOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    pixelBuffer.planes.indices.contains(planeIndex) ? pixelBuffer.planes[planeIndex].width : 0
}

/// Returns the height of the plane at the given index.
public func CVPixelBufferGetHeightOfPlane(_ pixelBuffer: CVPixelBuffer, _ planeIndex: Int) -> Int {
    pixelBuffer.planes.indices.contains(planeIndex) ? pixelBuffer.planes[planeIndex].height : 0
}

/// Returns the number of planes; zero for a packed (non-planar) buffer, as on Apple platforms.
public func CVPixelBufferGetPlaneCount(_ pixelBuffer: CVPixelBuffer) -> Int {
    pixelBuffer.planes.count > 1 ? pixelBuffer.planes.count : 0
}

/// Returns whether the pixel buffer is planar.
public func CVPixelBufferIsPlanar(_ pixelBuffer: CVPixelBuffer) -> Bool { pixelBuffer.planes.count > 1 }

/// Returns the pixel format of the buffer.
public func CVPixelBufferGetPixelFormatType(_ pixelBuffer: CVPixelBuffer) -> OSType { pixelBuffer.pixelFormatType }

/// Returns the number of bytes the buffer's pixels span.
public func CVPixelBufferGetDataSize(_ pixelBuffer: CVPixelBuffer) -> Int { pixelBuffer.dataSize }

/// Returns the full dimensions of an image buffer.
public func CVImageBufferGetEncodedSize(_ imageBuffer: CVImageBuffer) -> CGSize {
    CGSize(width: imageBuffer.width, height: imageBuffer.height)
}

/// Returns the nominal display size of an image buffer, in square pixels: its clean aperture,
/// scaled by its pixel aspect ratio.
public func CVImageBufferGetDisplaySize(_ imageBuffer: CVImageBuffer) -> CGSize {
    imageBuffer.imageGeometry.presentationSize(width: imageBuffer.width, height: imageBuffer.height)
}

/// Reads a whole number out of a settings or attributes value, as Apple's dictionaries hold them.
package func attributeInt(_ value: Any?) -> Int? {
    func whole<F: BinaryFloatingPoint>(_ number: F) -> Int? {
        guard number.isFinite, number >= -0x1p62, number <= 0x1p62 else { return nil }  // NaN and the infinite are no size
        return Int(number.rounded(.towardZero))
    }
    switch value {
    case let number as Int: return number
    case let number as any BinaryInteger: return Int(exactly: number)
    case let number as Double: return whole(number)
    case let number as CGFloat: return whole(number)
    case let number as Float: return whole(number)
    case let number as NSNumber: return whole(number.doubleValue)
    default: return nil
    }
}

/// Reads a four-character code out of a settings or attributes value.
package func attributeOSType(_ value: Any?) -> OSType? {
    attributeInt(value).flatMap { OSType(exactly: $0) }
}

extension NSDictionary {
    fileprivate subscript(key: String) -> Any? { self.object(forKey: key) }
}

/// What `CVPixelBufferCreateWithBytes` needs to release the caller's bytes.
private final class ReleaseContext: @unchecked Sendable {
    let callback: CVPixelBufferReleaseBytesCallback
    let refCon: UnsafeMutableRawPointer?
    let base: UnsafeMutableRawPointer
    init(callback: CVPixelBufferReleaseBytesCallback, refCon: UnsafeMutableRawPointer?, base: UnsafeMutableRawPointer) {
        self.callback = callback
        self.refCon = refCon
        self.base = base
    }
    func run() { callback(refCon, UnsafeRawPointer(base)) }
}

/// Reads a Boolean out of a settings or attributes value: a `Bool`, or a number that is 0 or 1.
package func attributeBool(_ value: Any?) -> Bool? {
    switch value {
    case let flag as Bool: return flag
    case let number as NSNumber where number.intValue == 0 || number.intValue == 1: return number.intValue == 1
    default: return nil
    }
}
