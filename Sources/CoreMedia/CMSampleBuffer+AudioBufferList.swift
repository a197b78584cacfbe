/// Asks that every buffer of the list start on a 16-byte boundary (block buffers here always do).
public let kCMSampleBufferFlag_AudioBufferList_Assure16ByteAlignment: UInt32 = 1 << 0

/// The linear PCM description of an audio sample buffer, or nil.
private func linearPCM(_ sbuf: CMSampleBuffer) -> AudioStreamBasicDescription? {
    guard let asbd = sbuf.formatDescriptionStorage?.audioStreamBasicDescription, asbd.mFormatID == kAudioFormatLinearPCM, asbd.mBytesPerFrame > 0 else {
        return nil
    }
    return asbd
}

/// Describes an audio sample buffer's samples as an `AudioBufferList` over its block buffer's
/// memory (one buffer for interleaved samples, one per channel otherwise) and hands out the block
/// buffer that owns that memory. With no list, tells the size a list needs.
@discardableResult
public func CMSampleBufferGetAudioBufferListWithRetainedBlockBuffer(
    _ sbuf: CMSampleBuffer, bufferListSizeNeededOut: UnsafeMutablePointer<Int>?, bufferListOut: UnsafeMutablePointer<AudioBufferList>?,
    bufferListSize: Int, blockBufferAllocator: CFAllocator?, blockBufferMemoryAllocator: CFAllocator?, flags: UInt32,
    blockBufferOut: UnsafeMutablePointer<CMBlockBuffer?>?
) -> OSStatus {
    guard sbuf.isValid else { return kCMSampleBufferError_Invalidated }
    guard let asbd = linearPCM(sbuf), let block = sbuf.dataBufferStorage else { return kCMSampleBufferError_InvalidMediaTypeForOperation }
    let nonInterleaved = asbd.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0
    let count = nonInterleaved ? Int(asbd.mChannelsPerFrame) : 1
    let needed = AudioBufferList.sizeInBytes(maximumBuffers: max(1, count))
    bufferListSizeNeededOut?.pointee = needed
    guard let bufferListOut else { return noErr }
    guard bufferListSize >= needed else { return kCMSampleBufferError_ArrayTooSmall }
    let list = UnsafeMutableAudioBufferListPointer(bufferListOut)
    list.count = count
    let each = block.length / count
    for index in 0..<count {
        list[index] = AudioBuffer(
            mNumberChannels: nonInterleaved ? 1 : asbd.mChannelsPerFrame, mDataByteSize: UInt32(each), mData: block.bytes + index * each)
    }
    blockBufferOut?.pointee = block
    return noErr
}

/// Copies `numFrames` frames of an audio sample buffer's linear PCM, from `frameOffset`, into
/// the memory a buffer list describes (in the sample buffer's own format).
@discardableResult
public func CMSampleBufferCopyPCMDataIntoAudioBufferList(
    _ sbuf: CMSampleBuffer, at frameOffset: Int32, frameCount numFrames: Int32, into bufferList: UnsafeMutablePointer<AudioBufferList>
) -> OSStatus {
    guard sbuf.isValid else { return kCMSampleBufferError_Invalidated }
    guard let asbd = linearPCM(sbuf), let block = sbuf.dataBufferStorage else { return kCMSampleBufferError_InvalidMediaTypeForOperation }
    let nonInterleaved = asbd.mFormatFlags & kAudioFormatFlagIsNonInterleaved != 0
    let count = nonInterleaved ? Int(asbd.mChannelsPerFrame) : 1
    let frameBytes = Int(asbd.mBytesPerFrame)
    let frames = block.length / count / frameBytes
    guard frameOffset >= 0, numFrames >= 0, Int(frameOffset) + Int(numFrames) <= frames else { return kCMSampleBufferError_RequiredParameterMissing }
    let list = UnsafeMutableAudioBufferListPointer(bufferList)
    guard list.count >= count else { return kCMSampleBufferError_ArrayTooSmall }
    let bytes = Int(numFrames) * frameBytes
    for index in 0..<count {
        guard let destination = list[index].mData, Int(list[index].mDataByteSize) >= bytes else { return kCMSampleBufferError_ArrayTooSmall }
        destination.copyMemory(from: block.bytes + index * (block.length / count) + Int(frameOffset) * frameBytes, byteCount: bytes)
        list[index].mDataByteSize = UInt32(bytes)
    }
    return noErr
}
