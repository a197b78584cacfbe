// Joins two clips with a crossfade, pictures and sound, and exports the result with a title.
//
//     TinyEditor <first clip> <second clip> <output.mov> [title]
//
// The title is the movie's title in its metadata, as players and libraries show it.
import AVFoundation

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3 else {
    print("usage: TinyEditor <first clip> <second clip> <output.mov> [title]")
    exit(2)
}
let first = AVURLAsset(url: URL(fileURLWithPath: arguments[0]))
let second = AVURLAsset(url: URL(fileURLWithPath: arguments[1]))
let output = URL(fileURLWithPath: arguments[2])
let title = arguments.count > 3 ? arguments[3] : "Two clips"

let firstTracks = try await first.load(.tracks)
let secondTracks = try await second.load(.tracks)
guard let firstVideo = firstTracks.first(where: { $0.mediaType == .video }),
    let secondVideo = secondTracks.first(where: { $0.mediaType == .video })
else {
    print("Both clips need pictures.")
    exit(1)
}
// Each clip lasts as long as its pictures do.
let firstDuration = try await firstVideo.load(.timeRange).duration
let secondDuration = try await secondVideo.load(.timeRange).duration
// A one-second crossfade, or less when a clip is shorter than two.
let fade = CMTimeMinimum(CMTime(value: 1, timescale: 1), CMTimeMultiplyByFloat64(CMTimeMinimum(firstDuration, secondDuration), multiplier: 0.5))
let secondStart = firstDuration - fade
let end = secondStart + secondDuration
let fadeRange = CMTimeRange(start: secondStart, duration: fade)

// Each clip on its own tracks, overlapping by the fade.
let composition = AVMutableComposition()
guard let videoA = composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid),
    let videoB = composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid)
else { exit(1) }
try videoA.insertTimeRange(CMTimeRange(start: .zero, duration: firstDuration), of: firstVideo, at: .zero)
try videoB.insertTimeRange(CMTimeRange(start: .zero, duration: secondDuration), of: secondVideo, at: secondStart)

var mixParameters: [AVAudioMixInputParameters] = []
for (tracks, start, duration, fadesOut) in [(firstTracks, CMTime.zero, firstDuration, true), (secondTracks, secondStart, secondDuration, false)] {
    guard let sound = tracks.first(where: { $0.mediaType == .audio }),
        let track = composition.addMutableTrack(withMediaType: .audio, preferredTrackID: kCMPersistentTrackID_Invalid)
    else { continue }
    let soundRange = try await sound.load(.timeRange)
    try track.insertTimeRange(CMTimeRange(start: soundRange.start, duration: CMTimeMinimum(duration, soundRange.duration)), of: sound, at: start)
    let parameters = AVMutableAudioMixInputParameters(track: track)
    parameters.setVolumeRamp(fromStartVolume: fadesOut ? 1 : 0, toEndVolume: fadesOut ? 0 : 1, timeRange: fadeRange)
    mixParameters.append(parameters)
}
let audioMix = AVMutableAudioMix()
audioMix.inputParameters = mixParameters

// The first clip alone, then fading out over the second, then the second alone.
let naturalSize = try await firstVideo.load(.naturalSize)
let videoComposition = AVMutableVideoComposition()
videoComposition.renderSize = naturalSize
videoComposition.frameDuration = CMTime(value: 1, timescale: 30)
func instruction(_ range: CMTimeRange, _ layers: [AVVideoCompositionLayerInstruction]) -> AVMutableVideoCompositionInstruction {
    let instruction = AVMutableVideoCompositionInstruction()
    instruction.timeRange = range
    instruction.layerInstructions = layers
    return instruction
}
let fadingOut = AVMutableVideoCompositionLayerInstruction(assetTrack: videoA)
fadingOut.setOpacityRamp(fromStartOpacity: 1, toEndOpacity: 0, timeRange: fadeRange)
videoComposition.instructions = [
    instruction(CMTimeRange(start: .zero, end: secondStart), [AVMutableVideoCompositionLayerInstruction(assetTrack: videoA)]),
    instruction(fadeRange, [fadingOut, AVMutableVideoCompositionLayerInstruction(assetTrack: videoB)]),
    instruction(CMTimeRange(start: firstDuration, end: end), [AVMutableVideoCompositionLayerInstruction(assetTrack: videoB)]),
]

guard let export = AVAssetExportSession(asset: composition, presetName: AVAssetExportPresetHighestQuality) else {
    print("The composition cannot be exported.")
    exit(1)
}
export.videoComposition = videoComposition
export.audioMix = audioMix
let titleItem = AVMutableMetadataItem()
titleItem.identifier = .commonIdentifierTitle
titleItem.value = title as NSString
export.metadata = [titleItem]
try? FileManager.default.removeItem(at: output)
print(
    "Exporting \(String(format: "%.1f", end.seconds)) s: \(String(format: "%.1f", firstDuration.seconds)) s, a \(String(format: "%.1f", fade.seconds)) s crossfade, \(String(format: "%.1f", secondDuration.seconds)) s"
)
try await export.export(to: output, as: .mov)

let result = AVURLAsset(url: output)
let (duration, metadata) = try await result.load(.duration, .commonMetadata)
let written = AVMetadataItem.metadataItems(from: metadata, filteredByIdentifier: .commonIdentifierTitle).first
let writtenTitle = try await written?.load(.stringValue) ?? "none"
print("Wrote \(output.lastPathComponent): \(String(format: "%.2f", duration.seconds)) s, titled \"\(writtenTitle)\"")
