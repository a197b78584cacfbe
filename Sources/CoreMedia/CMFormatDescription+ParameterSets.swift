import Foundation

/// An H.264 or HEVC format description's parameter sets, copied out of its `avcC` or `hvcC` box
/// into memory that lives as long as the description, as Apple's functions hand out pointers.
final class ParameterSetStorage: @unchecked Sendable {
    let bytes: UnsafeMutablePointer<UInt8>
    let sets: [(offset: Int, size: Int)]
    let nalUnitHeaderLength: Int32

    /// Reads the sets of an `avcC` box (ISO/IEC 14496-15, 5.3.3.1) or an `hvcC` box (8.3.3.1.2); nil when it is malformed.
    init?(box: Data, hevc: Bool) {
        let data = [UInt8](box)
        var found: [Range<Int>] = []
        var at: Int
        /// Reads `count` length-prefixed units from `at`; false when one runs past the box.
        func units(_ count: Int) -> Bool {
            for _ in 0..<count {
                guard at + 2 <= data.count else { return false }
                let size = Int(data[at]) << 8 | Int(data[at + 1])
                guard size > 0, at + 2 + size <= data.count else { return false }
                found.append((at + 2)..<(at + 2 + size))
                at += 2 + size
            }
            return true
        }
        if hevc {
            guard data.count >= 23, data[0] == 1 else { return nil }
            nalUnitHeaderLength = Int32(data[21] & 3) + 1
            at = 23
            for _ in 0..<Int(data[22]) {
                guard at + 3 <= data.count else { return nil }
                let count = Int(data[at + 1]) << 8 | Int(data[at + 2])
                at += 3
                guard units(count) else { return nil }
            }
        } else {
            guard data.count >= 7, data[0] == 1 else { return nil }
            nalUnitHeaderLength = Int32(data[4] & 3) + 1
            at = 6
            guard units(Int(data[5] & 0x1F)), at < data.count else { return nil }
            let pictureSets = Int(data[at])
            at += 1
            guard units(pictureSets) else { return nil }
        }
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: max(found.reduce(0) { $0 + $1.count }, 1))
        var offsets: [(Int, Int)] = []
        var written = 0
        for range in found {
            data.withUnsafeBufferPointer { (storage + written).update(from: $0.baseAddress! + range.lowerBound, count: range.count) }
            offsets.append((written, range.count))
            written += range.count
        }
        bytes = storage
        sets = offsets
    }

    deinit { bytes.deallocate() }
}

extension CMFormatDescription {
    /// The parameter sets of an H.264 (`hevc` false) or HEVC description, read once; nil for other codecs or a malformed box.
    fileprivate func parameterSets(hevc: Bool) -> ParameterSetStorage? {
        guard mediaTypeCode == kCMMediaType_Video, let box = extensionAtoms[hevc ? "hvcC" : "avcC"] else { return nil }
        return parameterSetCache.withLock { cache in
            if cache == nil { cache = ParameterSetStorage(box: box, hevc: hevc) }
            return cache
        }
    }
}

/// Hands out one parameter set of a description, Apple's way: every out-parameter optional, the
/// count and header length given even when only they are asked for.
private func parameterSet(
    _ storage: ParameterSetStorage?, index: Int, pointer: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, size: UnsafeMutablePointer<Int>?,
    count: UnsafeMutablePointer<Int>?, headerLength: UnsafeMutablePointer<Int32>?
) -> OSStatus {
    guard let storage else { return kCMFormatDescriptionError_InvalidParameter }
    count?.pointee = storage.sets.count
    headerLength?.pointee = storage.nalUnitHeaderLength
    guard pointer != nil || size != nil else { return noErr }
    guard storage.sets.indices.contains(index) else { return kCMFormatDescriptionBridgeError_InvalidParameter }
    pointer?.pointee = UnsafePointer(storage.bytes + storage.sets[index].offset)
    size?.pointee = storage.sets[index].size
    return noErr
}

/// Returns a parameter set that an H.264 format description contains: its sequence parameter
/// sets, then its picture parameter sets, without start codes.
@discardableResult
public func CMVideoFormatDescriptionGetH264ParameterSetAtIndex(
    _ videoDesc: CMFormatDescription, parameterSetIndex: Int, parameterSetPointerOut: UnsafeMutablePointer<UnsafePointer<UInt8>?>?,
    parameterSetSizeOut: UnsafeMutablePointer<Int>?, parameterSetCountOut: UnsafeMutablePointer<Int>?,
    nalUnitHeaderLengthOut NALUnitHeaderLengthOut: UnsafeMutablePointer<Int32>?
) -> OSStatus {
    parameterSet(
        videoDesc.parameterSets(hevc: false), index: parameterSetIndex, pointer: parameterSetPointerOut, size: parameterSetSizeOut,
        count: parameterSetCountOut, headerLength: NALUnitHeaderLengthOut)
}

/// Returns a parameter set contained in an HEVC (H.265) format description: its video,
/// sequence and picture parameter sets (and any SEI units its configuration carries), in order.
@discardableResult
public func CMVideoFormatDescriptionGetHEVCParameterSetAtIndex(
    _ videoDesc: CMFormatDescription, parameterSetIndex: Int, parameterSetPointerOut: UnsafeMutablePointer<UnsafePointer<UInt8>?>?,
    parameterSetSizeOut: UnsafeMutablePointer<Int>?, parameterSetCountOut: UnsafeMutablePointer<Int>?,
    nalUnitHeaderLengthOut NALUnitHeaderLengthOut: UnsafeMutablePointer<Int32>?
) -> OSStatus {
    parameterSet(
        videoDesc.parameterSets(hevc: true), index: parameterSetIndex, pointer: parameterSetPointerOut, size: parameterSetSizeOut,
        count: parameterSetCountOut, headerLength: NALUnitHeaderLengthOut)
}
