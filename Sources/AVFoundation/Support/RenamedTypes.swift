import Foundation

// The Objective-C names of nested Swift types, which code ported from older Swift or written
// against the C names still uses; each is the nested type.

/// The older name of `AVPlayer.Status`.
public typealias AVPlayerStatus = AVPlayer.Status
/// The older name of `AVPlayerItem.Status`.
public typealias AVPlayerItemStatus = AVPlayerItem.Status
/// The older name of `AVPlayer.TimeControlStatus`.
public typealias AVPlayerTimeControlStatus = AVPlayer.TimeControlStatus
/// The older name of `AVPlayer.ActionAtItemEnd`.
public typealias AVPlayerActionAtItemEnd = AVPlayer.ActionAtItemEnd
/// The older name of `AVAssetExportSession.Status`.
public typealias AVAssetExportSessionStatus = AVAssetExportSession.Status
/// The older name of `AVAssetReader.Status`.
public typealias AVAssetReaderStatus = AVAssetReader.Status
/// The older name of `AVAssetWriter.Status`.
public typealias AVAssetWriterStatus = AVAssetWriter.Status
