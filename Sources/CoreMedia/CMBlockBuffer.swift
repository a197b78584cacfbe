import Foundation

/// A Core Media block buffer result code.
public let kCMBlockBufferNoErr: OSStatus = 0
/// A block buffer could not allocate memory.
public let kCMBlockBufferStructureAllocationFailedErr: OSStatus = -12700
/// A block buffer could not allocate its memory block.
public let kCMBlockBufferBlockAllocationFailedErr: OSStatus = -12701
/// A block buffer call was given a bad argument.
public let kCMBlockBufferBadCustomBlockSourceErr: OSStatus = -12702
/// An offset or length lies outside the block buffer.
public let kCMBlockBufferBadOffsetParameterErr: OSStatus = -12703
/// A length is invalid.
public let kCMBlockBufferBadLengthParameterErr: OSStatus = -12704
/// A pointer argument is invalid.
public let kCMBlockBufferBadPointerParameterErr: OSStatus = -12705
/// The block buffer is empty.
public let kCMBlockBufferEmptyBBufErr: OSStatus = -12706

/// Flags for creating block buffers.
public typealias CMBlockBufferFlags = UInt32

/// A contiguous range of bytes, such as the samples of an audio buffer.
///
/// Thread ownership: the producer fills it before publishing it; after that it is read-only.
public final class CMBlockBuffer: @unchecked Sendable {
    /// The first byte.
    package let bytes: UnsafeMutableRawPointer
    /// The number of bytes the buffer can hold.
    package let capacity: Int
    /// The number of bytes the buffer holds.
    package var length: Int
    private let ownsBytes: Bool
    /// The buffer whose memory this one refers to, kept while this one lives.
    private let referenced: CMBlockBuffer?

    /// A buffer over `length` bytes of another's, from `offset`: the same memory, not a copy; nil
    /// when the range is not inside it.
    package init?(referencing buffer: CMBlockBuffer, offset: Int, length: Int) {
        guard offset >= 0, length >= 0, offset + length <= buffer.length else { return nil }
        bytes = buffer.bytes + offset
        capacity = length
        self.length = length
        ownsBytes = false
        referenced = buffer
    }

    /// Allocates a buffer that can hold `capacity` bytes, zero-filled.
    package init(capacity: Int) {
        self.capacity = capacity
        self.bytes = UnsafeMutableRawPointer.allocateAligned(byteCount: max(capacity, 1), alignment: 64)!
        self.bytes.initializeMemory(as: UInt8.self, repeating: 0, count: max(capacity, 1))
        self.length = capacity
        self.ownsBytes = true
        self.referenced = nil
    }

    deinit {
        if ownsBytes { free(bytes) }
    }

    /// The number of bytes the buffer holds.
    public var dataLength: Int { length }

    /// Calls `body` with the buffer's bytes.
    public func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeMutableRawBufferPointer(start: bytes, count: length))
    }

    /// A copy of the buffer's bytes.
    public func dataBytes() throws -> Data { Data(bytes: bytes, count: length) }
}

/// Creates a block buffer over a new memory block of `blockLength` bytes.
@discardableResult
public func CMBlockBufferCreateWithMemoryBlock(
    allocator structureAllocator: CFAllocator?, memoryBlock: UnsafeMutableRawPointer?,
    blockLength: Int, blockAllocator: CFAllocator?, customBlockSource: UnsafeRawPointer?,
    offsetToData: Int, dataLength: Int, flags: CMBlockBufferFlags,
    blockBufferOut: UnsafeMutablePointer<CMBlockBuffer?>
) -> OSStatus {
    guard blockLength >= 0, offsetToData >= 0, dataLength >= 0, offsetToData + dataLength <= blockLength else {
        return kCMBlockBufferBadLengthParameterErr
    }
    let buffer = CMBlockBuffer(capacity: dataLength)
    if let memoryBlock { buffer.bytes.copyMemory(from: memoryBlock + offsetToData, byteCount: dataLength) }
    blockBufferOut.pointee = buffer
    return kCMBlockBufferNoErr
}

/// Returns the number of bytes a block buffer holds.
public func CMBlockBufferGetDataLength(_ theBuffer: CMBlockBuffer) -> Int { theBuffer.length }

/// Returns a pointer to the bytes at an offset, with the lengths of the contiguous run and of the whole buffer.
@discardableResult
public func CMBlockBufferGetDataPointer(
    _ theBuffer: CMBlockBuffer, atOffset offset: Int, lengthAtOffsetOut: UnsafeMutablePointer<Int>?,
    totalLengthOut: UnsafeMutablePointer<Int>?,
    dataPointerOut: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
) -> OSStatus {
    guard offset >= 0, offset <= theBuffer.length else { return kCMBlockBufferBadOffsetParameterErr }
    lengthAtOffsetOut?.pointee = theBuffer.length - offset
    totalLengthOut?.pointee = theBuffer.length
    dataPointerOut?.pointee = (theBuffer.bytes + offset).assumingMemoryBound(to: CChar.self)
    return kCMBlockBufferNoErr
}

/// Copies bytes out of a block buffer.
@discardableResult
public func CMBlockBufferCopyDataBytes(
    _ theSourceBuffer: CMBlockBuffer, atOffset offsetToData: Int, dataLength: Int,
    destination: UnsafeMutableRawPointer
) -> OSStatus {
    guard offsetToData >= 0, dataLength >= 0, offsetToData + dataLength <= theSourceBuffer.length else {
        return kCMBlockBufferBadOffsetParameterErr
    }
    destination.copyMemory(from: theSourceBuffer.bytes + offsetToData, byteCount: dataLength)
    return kCMBlockBufferNoErr
}

/// Copies bytes into a block buffer.
@discardableResult
public func CMBlockBufferReplaceDataBytes(
    with sourceBytes: UnsafeRawPointer, blockBuffer destinationBuffer: CMBlockBuffer,
    offsetIntoDestination: Int, dataLength: Int
) -> OSStatus {
    guard offsetIntoDestination >= 0, dataLength >= 0, offsetIntoDestination + dataLength <= destinationBuffer.length else {
        return kCMBlockBufferBadOffsetParameterErr
    }
    (destinationBuffer.bytes + offsetIntoDestination).copyMemory(from: sourceBytes, byteCount: dataLength)
    return kCMBlockBufferNoErr
}

/// Fills a range of a block buffer's data with a byte.
@discardableResult
public func CMBlockBufferFillDataBytes(with fillByte: CChar, blockBuffer destinationBuffer: CMBlockBuffer, offsetIntoDestination: Int, dataLength: Int)
    -> OSStatus
{
    guard offsetIntoDestination >= 0, dataLength >= 0, offsetIntoDestination + dataLength <= destinationBuffer.length else {
        return kCMBlockBufferBadOffsetParameterErr
    }
    (destinationBuffer.bytes + offsetIntoDestination).initializeMemory(as: UInt8.self, repeating: UInt8(bitPattern: fillByte), count: dataLength)
    return kCMBlockBufferNoErr
}

/// Creates a block buffer over a range of another's data: the same memory, kept alive, not copied.
@discardableResult
public func CMBlockBufferCreateWithBufferReference(
    allocator structureAllocator: CFAllocator?, referenceBuffer bufferReference: CMBlockBuffer, offsetToData: Int, dataLength: Int,
    flags: CMBlockBufferFlags, blockBufferOut: UnsafeMutablePointer<CMBlockBuffer?>
) -> OSStatus {
    blockBufferOut.pointee = CMBlockBuffer(referencing: bufferReference, offset: offsetToData, length: dataLength)
    return blockBufferOut.pointee == nil ? kCMBlockBufferBadOffsetParameterErr : kCMBlockBufferNoErr
}
