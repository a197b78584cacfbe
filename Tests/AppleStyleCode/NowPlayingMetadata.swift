import AVFoundation

/// What a radio or live-event player shows from its stream's timed metadata, read as such apps
/// read HLS ID3 tags: a metadata output on the item, its push delegate on the main queue, and the
/// items picked by identifier (the title, the encoder's private markers).
public final class NowPlayingMetadata: NSObject, AVPlayerItemMetadataOutputPushDelegate {
    /// The player of the stream.
    public let player: AVPlayer
    private let metadataOutput = AVPlayerItemMetadataOutput(identifiers: nil)
    /// The titles shown, in order.
    public private(set) var titles: [String] = []
    /// The private markers (owner and bytes) met, in order.
    public private(set) var markers: [(owner: String, payload: Data, at: Double)] = []
    /// Called on the main queue when the title changes.
    public var onTitle: ((String) -> Void)?

    /// Prepares a player of the stream at `url`.
    public init(url: URL) {
        let playerItem = AVPlayerItem(url: url)
        player = AVPlayer(playerItem: playerItem)
        super.init()
        metadataOutput.setDelegate(self, queue: DispatchQueue.main)
        playerItem.add(metadataOutput)
    }

    /// Receives the stream's metadata as playback reaches it.
    public func metadataOutput(
        _ output: AVPlayerItemMetadataOutput, didOutputTimedMetadataGroups groups: [AVTimedMetadataGroup], from track: AVPlayerItemTrack?
    ) {
        for group in groups {
            for item in group.items {
                switch item.identifier {
                case AVMetadataIdentifier.id3MetadataTitleDescription?:
                    guard let title = item.stringValue else { continue }
                    titles.append(title)
                    onTitle?(title)
                case AVMetadataIdentifier.id3MetadataPrivate?:
                    guard let owner = item.extraAttributes?[.info] as? String, let payload = item.dataValue else { continue }
                    markers.append((owner, payload, CMTimeGetSeconds(group.timeRange.start)))
                default:
                    break
                }
            }
        }
    }
}
