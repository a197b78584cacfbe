import Foundation

/// Creates an HEVC format description from video, sequence and picture parameter sets (and any
/// SEI units to keep with them), each without start codes, building the `hvcC` box a decoder is configured by.
@discardableResult
public func CMVideoFormatDescriptionCreateFromHEVCParameterSets(
    allocator: CFAllocator?, parameterSetCount: Int, parameterSetPointers: UnsafePointer<UnsafePointer<UInt8>>,
    parameterSetSizes: UnsafePointer<Int>, nalUnitHeaderLength: Int32, extensions: CFDictionary?,
    formatDescriptionOut: UnsafeMutablePointer<CMFormatDescription?>
) -> OSStatus {
    guard parameterSetCount >= 3, [1, 2, 4].contains(nalUnitHeaderLength) else { return kCMFormatDescriptionBridgeError_InvalidParameter }
    let sets = (0..<parameterSetCount).map { Data(bytes: parameterSetPointers[$0], count: parameterSetSizes[$0]) }
    guard let hvcC = HEVCConfiguration.box(units: sets, nalUnitHeaderLength: Int(nalUnitHeaderLength)) else {
        return kCMFormatDescriptionBridgeError_InvalidParameter
    }
    formatDescriptionOut.pointee = CMFormatDescription(
        video: kCMVideoCodecType_HEVC, width: Int32(hvcC.width), height: Int32(hvcC.height), extensionAtoms: ["hvcC": hvcC.box])
    return noErr
}

/// An HEVC decoder configuration record (ISO/IEC 14496-15, 8.3.3.1) made from parameter sets.
package enum HEVCConfiguration {
    /// The `hvcC` box's contents and the picture size of the sequence parameter set, from units that
    /// include a VPS, an SPS and a PPS (NAL unit types 32, 33, 34; SEI 39 and 40 are kept too); nil
    /// when one is missing or the SPS cannot be read.
    package static func box(units: [Data], nalUnitHeaderLength: Int) -> (box: Data, width: Int, height: Int)? {
        let type = { (unit: Data) -> Int in Int((unit.first ?? 0) >> 1 & 0x3F) }
        let kept = [32, 33, 34, 39, 40]
        guard [32, 33, 34].allSatisfy({ wanted in units.contains { type($0) == wanted && $0.count > 2 } }),
            let sps = units.first(where: { type($0) == 33 }), let facts = SequenceFacts(sps)
        else { return nil }
        var box = Data([1])
        box.append(contentsOf: facts.profileTierLevel)
        box.append(contentsOf: [0xF0, 0x00, 0xFC, 0xFC | UInt8(facts.chromaFormat & 3), 0xF8 | UInt8(facts.lumaBitDepthMinus8 & 7)])
        box.append(contentsOf: [0xF8 | UInt8(facts.chromaBitDepthMinus8 & 7), 0, 0])
        // No constant frame rate claimed, the sub-layers of the SPS, nesting, and the length field's size.
        box.append(UInt8((facts.maxSubLayersMinus1 + 1) & 7) << 3 | UInt8(facts.temporalIdNesting) << 2 | UInt8(nalUnitHeaderLength - 1))
        let arrays = kept.filter { wanted in units.contains { type($0) == wanted } }
        box.append(UInt8(arrays.count))
        for wanted in arrays {
            let ofType = units.filter { type($0) == wanted }
            box.append(contentsOf: [0x80 | UInt8(wanted), UInt8(ofType.count >> 8), UInt8(ofType.count & 0xFF)])
            for unit in ofType {
                box.append(contentsOf: [UInt8(unit.count >> 8 & 0xFF), UInt8(unit.count & 0xFF)])
                box.append(unit)
            }
        }
        return (box, facts.width, facts.height)
    }

    /// What an `hvcC` box repeats from the sequence parameter set (ITU-T H.265, 7.3.2.2).
    struct SequenceFacts {
        var profileTierLevel: [UInt8] = []
        var maxSubLayersMinus1 = 0
        var temporalIdNesting = 0
        var chromaFormat = 1
        var width = 0
        var height = 0
        var lumaBitDepthMinus8 = 0
        var chromaBitDepthMinus8 = 0

        init?(_ sps: Data) {
            var r = ParameterSetBits(payload: sps.dropFirst(2))
            guard r.skip(4), let subLayers = r.bits(3), let nesting = r.bit() else { return nil }
            maxSubLayersMinus1 = subLayers
            temporalIdNesting = nesting
            let raw = r.rawBytes
            guard raw.count >= 13 else { return nil }
            profileTierLevel = Array(raw[1...12])
            guard r.skip(96) else { return nil }
            var profilePresent: [Int] = [], levelPresent: [Int] = []
            for _ in 0..<subLayers {
                guard let profile = r.bit(), let level = r.bit() else { return nil }
                profilePresent.append(profile)
                levelPresent.append(level)
            }
            if subLayers > 0 { guard r.skip(2 * (8 - subLayers)) else { return nil } }
            for index in 0..<subLayers {
                if profilePresent[index] == 1 { guard r.skip(88) else { return nil } }
                if levelPresent[index] == 1 { guard r.skip(8) else { return nil } }
            }
            guard r.unsignedGolomb() != nil, let chroma = r.unsignedGolomb() else { return nil }
            chromaFormat = chroma
            if chroma == 3 { guard r.bit() != nil else { return nil } }
            guard let lumaWidth = r.unsignedGolomb(), let lumaHeight = r.unsignedGolomb(), let window = r.bit() else { return nil }
            var (left, right, top, bottom) = (0, 0, 0, 0)
            if window == 1 {
                guard let l = r.unsignedGolomb(), let rt = r.unsignedGolomb(), let t = r.unsignedGolomb(), let b = r.unsignedGolomb() else { return nil }
                (left, right, top, bottom) = (l, rt, t, b)
            }
            let subWidth = chroma == 1 || chroma == 2 ? 2 : 1, subHeight = chroma == 1 ? 2 : 1
            width = lumaWidth - subWidth * (left + right)
            height = lumaHeight - subHeight * (top + bottom)
            guard width > 0, height > 0, let luma = r.unsignedGolomb(), let chromaDepth = r.unsignedGolomb() else { return nil }
            lumaBitDepthMinus8 = luma
            chromaBitDepthMinus8 = chromaDepth
        }
    }
}
