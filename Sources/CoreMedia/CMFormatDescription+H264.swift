import Foundation

/// A format description call was given parameter sets it cannot read.
public let kCMFormatDescriptionBridgeError_InvalidParameter: OSStatus = -12712

/// Creates an H.264 format description from sequence and picture parameter sets (without start codes).
@discardableResult
public func CMVideoFormatDescriptionCreateFromH264ParameterSets(
    allocator: CFAllocator?, parameterSetCount: Int,
    parameterSetPointers: UnsafePointer<UnsafePointer<UInt8>>,
    parameterSetSizes: UnsafePointer<Int>, nalUnitHeaderLength: Int32,
    formatDescriptionOut: UnsafeMutablePointer<CMFormatDescription?>
) -> OSStatus {
    guard parameterSetCount >= 2, [1, 2, 4].contains(nalUnitHeaderLength) else { return kCMFormatDescriptionBridgeError_InvalidParameter }
    let sets = (0..<parameterSetCount).map { Data(bytes: parameterSetPointers[$0], count: parameterSetSizes[$0]) }
    let sps = sets.filter { ($0.first ?? 0) & 0x1F == 7 }, pps = sets.filter { ($0.first ?? 0) & 0x1F == 8 }
    guard let first = sps.first, first.count >= 4, !pps.isEmpty, let size = H264SequenceParameterSet.dimensions(first) else {
        return kCMFormatDescriptionBridgeError_InvalidParameter
    }
    var avcC = Data([1, first[1], first[2], first[3], 0xFC | UInt8(nalUnitHeaderLength - 1), 0xE0 | UInt8(sps.count)])
    for set in sps { avcC.append(contentsOf: [UInt8(set.count >> 8), UInt8(set.count & 0xFF)]); avcC.append(set) }
    avcC.append(UInt8(pps.count))
    for set in pps { avcC.append(contentsOf: [UInt8(set.count >> 8), UInt8(set.count & 0xFF)]); avcC.append(set) }
    formatDescriptionOut.pointee = CMFormatDescription(
        video: kCMVideoCodecType_H264, width: Int32(size.width), height: Int32(size.height),
        extensionAtoms: ["avcC": avcC])
    return noErr
}

/// Reads the picture size out of an H.264 sequence parameter set (ITU-T H.264, 7.3.2.1.1).
enum H264SequenceParameterSet {
    static func dimensions(_ nal: Data) -> (width: Int, height: Int)? {
        var r = ParameterSetBits(payload: nal.dropFirst())
        guard let profile = r.bits(8), r.bits(16) != nil, r.unsignedGolomb() != nil else { return nil }
        var chromaFormat = 1
        if [100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135].contains(profile) {
            guard let chroma = r.unsignedGolomb() else { return nil }
            chromaFormat = chroma
            if chroma == 3 { _ = r.bit() }
            _ = r.unsignedGolomb(); _ = r.unsignedGolomb(); _ = r.bit()
            if r.bit() == 1 {
                for index in 0..<(chroma == 3 ? 12 : 8) where r.bit() == 1 {
                    var last = 8, next = 8
                    for _ in 0..<(index < 6 ? 16 : 64) where next != 0 {
                        guard let delta = r.signedGolomb() else { return nil }
                        next = (last + delta + 256) % 256
                        last = next == 0 ? last : next
                    }
                }
            }
        }
        _ = r.unsignedGolomb()
        guard let pocType = r.unsignedGolomb() else { return nil }
        if pocType == 0 { _ = r.unsignedGolomb() }
        if pocType == 1 {
            _ = r.bit(); _ = r.signedGolomb(); _ = r.signedGolomb()
            for _ in 0..<(r.unsignedGolomb() ?? 0) { _ = r.signedGolomb() }
        }
        _ = r.unsignedGolomb(); _ = r.bit()
        guard let widthMBs = r.unsignedGolomb(), let heightUnits = r.unsignedGolomb(), let frameMBsOnly = r.bit() else { return nil }
        if frameMBsOnly == 0 { _ = r.bit() }
        _ = r.bit()
        var crop = (0, 0, 0, 0)
        if r.bit() == 1 {
            guard let left = r.unsignedGolomb(), let right = r.unsignedGolomb(), let top = r.unsignedGolomb(), let bottom = r.unsignedGolomb() else {
                return nil
            }
            crop = (left, right, top, bottom)
        }
        let cropX = chromaFormat == 0 || chromaFormat == 3 ? 1 : 2
        let cropY = (chromaFormat == 1 ? 2 : 1) * (2 - frameMBsOnly)
        let width = (widthMBs + 1) * 16 - cropX * (crop.0 + crop.1)
        let height = (2 - frameMBsOnly) * (heightUnits + 1) * 16 - cropY * (crop.2 + crop.3)
        return width > 0 && height > 0 ? (width, height) : nil
    }
}
